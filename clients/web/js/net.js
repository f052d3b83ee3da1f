// The broker link of a page: topics (as protocol/topics.py builds them), the MQTT.js
// connection, message ids and the freshness order of views.

const BASE = "gamenight/v1";

export const topics = {
  tableView: (table) => `${BASE}/table/${table}/view`,
  tableEvents: (table) => `${BASE}/table/${table}/events`,
  hostIntent: (table) => `${BASE}/table/${table}/host/intent`,
  hostReply: (table) => `${BASE}/table/${table}/host/reply`,
  seat: (table, seat, name) => `${BASE}/table/${table}/seat/${seat}/${name}`,
};

/** A random id for an intent: letters, digits, '-' and '_' as the protocol allows. */
export function newId(prefix = "i") {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  const text = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
  return `${prefix}-${text.replace(/=+$/, "")}`;
}

/** True when view `a` is strictly newer than view `b` (ordered by epoch, then seq). */
export function isNewer(a, b) {
  if (!b) return true;
  if (a.epoch !== b.epoch) return a.epoch > b.epoch;
  return a.seq > b.seq;
}

/** True when view `a` is older than `b`: such a view is dropped, never shown. */
export function isOlder(a, b) {
  return Boolean(b) && isNewer(b, a);
}

/**
 * Where to dial: `urls` is one broker URL or several (a list, or comma-separated: the
 * nodes of a NATS cluster). With several, MQTT.js's `servers` makes each reconnection try
 * the next node, so a page whose node dies is on another one reconnectPeriod later.
 */
export function brokerTargets(urls) {
  const list = (Array.isArray(urls) ? urls : String(urls || "").split(","))
    .map((url) => url.trim())
    .filter(Boolean);
  if (list.length < 2) return { url: list[0], servers: undefined };
  const servers = list.map((text) => {
    const url = new URL(text);
    const secure = url.protocol === "wss:";
    return {
      host: url.hostname,
      port: Number(url.port) || (secure ? 443 : 80),
      protocol: secure ? "wss" : "ws",
    };
  });
  return { url: list[0], servers };
}

const RESEND_AFTER = 2000; // ms without a reply before an intent is sent again
const GIVE_UP_AFTER = 120000;

/**
 * One MQTT-over-WebSocket connection (to one of `url`'s nodes, see `brokerTargets`).
 * `handlers[topic](message)` gets parsed JSON;
 * `onConnect` runs after every (re)connect, when subscriptions are in place.
 *
 * `deliver(topic, intent)` keeps an intent until `settle(id)` (its reply) or
 * `settleBefore(seq)` (a view past it), and sends it again, same id, after every
 * reconnect and every RESEND_AFTER ms: a PUBACK only says the broker has it, and a
 * broker or tables service crash can still lose it. The tables service answers an id it
 * has applied again, never applying it twice. Pending intents are kept in
 * sessionStorage, so a reload of the page sends them again too. Since delivery is made
 * good here, intents go at `intentQos`, what the tables service asks (0 on a NATS
 * cluster, where every QoS 1 publish is a replicated write).
 */
export class Link {
  constructor({
    url,
    username,
    password,
    clientId,
    will,
    subscriptions,
    onConnect,
    onStatus,
    intentQos = 1,
  }) {
    const targets = brokerTargets(url);
    this.intentQos = intentQos === 0 ? 0 : 1;
    this.storageKey = `gamenight.pending.${clientId}`;
    this.pending = loadPending(this.storageKey);
    this.resendTimer = setInterval(() => this._resendDue(), RESEND_AFTER / 2);
    this.handlers = new Map();
    this.subscriptions = subscriptions;
    this.onConnect = onConnect || (() => {});
    this.onStatus = onStatus || (() => {});
    this.client = globalThis.mqtt.connect(targets.url, {
      servers: targets.servers,
      username,
      password,
      clientId,
      protocolVersion: 4, // MQTT 3.1.1: what every broker we support speaks
      clean: true,
      keepalive: 20,
      reconnectPeriod: 1500,
      connectTimeout: 8000,
      will: will && {
        topic: will.topic,
        payload: JSON.stringify(will.message),
        qos: 1,
        retain: true,
      },
    });
    this.client.on("connect", () => this._connected());
    this.client.on("message", (topic, payload) => this._message(topic, payload));
    this.client.on("close", () => this.onStatus("offline"));
    this.client.on("reconnect", () => this.onStatus("connecting"));
    this.client.on("error", (error) => {
      // CONNACK 4/5 (3.1.1) or 134/135 (5.0): these credentials are no longer good.
      const refused = [4, 5, 134, 135].includes(error && error.code);
      this.onStatus(refused ? "refused" : "error", error);
    });
  }

  on(topic, handler) {
    this.handlers.set(topic, handler);
  }

  publish(topic, message, { retain = false, qos = 1 } = {}) {
    this.client.publish(topic, JSON.stringify(message), { qos, retain });
  }

  /** Publish an intent once, not kept (a sync or a hint: asked again if need be). */
  publishIntent(topic, intent) {
    this.publish(topic, intent, { qos: this.intentQos });
  }

  /** Publish an intent and keep it until it is answered (see the class comment). */
  deliver(topic, intent) {
    const now = Date.now();
    this.pending.set(intent.id, { topic, intent, first: now, last: now });
    this._savePending();
    this.publishIntent(topic, intent);
  }

  /** Its reply arrived: stop sending intent `id`. */
  settle(id) {
    if (this.pending.delete(id)) this._savePending();
  }

  /** A view numbered `seq` arrived: intents chosen on older views are done with. */
  settleBefore(seq) {
    let changed = false;
    for (const [id, entry] of this.pending) {
      if (typeof entry.intent.seq === "number" && entry.intent.seq < seq) {
        this.pending.delete(id);
        changed = true;
      }
    }
    if (changed) this._savePending();
  }

  end() {
    clearInterval(this.resendTimer);
    this.client.end(true);
  }

  _resendDue(all = false) {
    if (!this.client.connected) return; // the reconnect sends them all
    const now = Date.now();
    for (const [id, entry] of this.pending) {
      if (now - entry.first > GIVE_UP_AFTER) {
        this.pending.delete(id);
      } else if (all || now - entry.last >= RESEND_AFTER) {
        entry.last = now;
        this.publishIntent(entry.topic, entry.intent);
      }
    }
    this._savePending();
  }

  _savePending() {
    try {
      sessionStorage.setItem(this.storageKey, JSON.stringify([...this.pending.values()]));
    } catch {
      // storage full or disabled: the intents are still resent while the page lives
    }
  }

  _connected() {
    // QoS 0: a clean session loses undelivered messages at a disconnect whatever the QoS,
    // views are retained and numbered, and an unanswered intent is sent again. QoS 1 would
    // only add, on a NATS cluster, a replicated consumer per subscription, whose leader a
    // reconnection after a node's death may have to wait for (seconds of Raft election).
    this.client.subscribe(this.subscriptions, { qos: 0 }, (error) => {
      if (error) {
        this.onStatus("error", error);
        return;
      }
      this.onStatus("online");
      this.onConnect();
      this._resendDue(true);
    });
  }

  _message(topic, payload) {
    const handler = this.handlers.get(topic);
    if (!handler || payload.length === 0) return;
    let message;
    try {
      message = JSON.parse(new TextDecoder().decode(payload));
    } catch {
      return; // not ours: the tables service owns these topics and only sends JSON
    }
    if (!message || message.v !== 1) return;
    try {
      handler(message);
    } catch (error) {
      // MQTT.js acknowledges a message only after its listeners return: a drawing bug
      // must not stop the acks (the broker would wait, then drop the connection and the
      // messages after it). Report it as the page error it is, once this one is acked.
      setTimeout(() => {
        throw error;
      });
    }
  }
}

function loadPending(key) {
  const pending = new Map();
  try {
    for (const entry of JSON.parse(sessionStorage.getItem(key) || "[]")) {
      if (entry && entry.intent && typeof entry.intent.id === "string") pending.set(entry.intent.id, entry);
    }
  } catch {
    // nothing kept, or unreadable: start afresh
  }
  return pending;
}

/** POST JSON to the web service; resolves to {ok, status, body}. */
export async function postJson(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  let data = {};
  try {
    data = await response.json();
  } catch {
    data = { error: { code: "tables_unavailable", params: {} } };
  }
  return { ok: response.ok && !data.error, status: response.status, body: data };
}
