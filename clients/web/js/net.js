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
 * One MQTT-over-WebSocket connection. `handlers[topic](message)` gets parsed JSON;
 * `onConnect` runs after every (re)connect, when subscriptions are in place.
 */
export class Link {
  constructor({ url, username, password, clientId, will, subscriptions, onConnect, onStatus }) {
    this.handlers = new Map();
    this.subscriptions = subscriptions;
    this.onConnect = onConnect || (() => {});
    this.onStatus = onStatus || (() => {});
    this.client = globalThis.mqtt.connect(url, {
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

  end() {
    this.client.end(true);
  }

  _connected() {
    this.client.subscribe(this.subscriptions, { qos: 1 }, (error) => {
      if (error) {
        this.onStatus("error", error);
        return;
      }
      this.onStatus("online");
      this.onConnect();
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
