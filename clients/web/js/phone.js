// The phone page: join with a name, then hold the private hand. It shows only what the
// seat's own view says, always the newest one, and acts only through seat intents.

import { Link, isOlder, newId, postJson, topics } from "./net.js";
import { describe, language, languageSwitch, listOf, preferredLanguage, setLanguage, t, translatePage } from "./i18n.js";
import { closableDialogs, el, fourColourToggle, showConnection, toast } from "./dom.js";
import { botTags, closeTakenSeatLink, renderHostControls, showSeatLink, standInTag } from "./host.js";
import { cardElement, cardText, sortHand } from "./cards.js";
import {
  allNames, answerText, errorText, eventText, gameModule, nameOf, optionLines, setGame, setNames,
} from "./table.js";
import { dragSource } from "./drag.js";
import { listen, recogniserClass } from "./speech.js";
import { keepAwake } from "./wakelock.js";
import { showVoiceInput } from "./capabilities.js";
import { wireVoice } from "./voice.js";

const STORE = "gamenight.seats";
const NAME_KEY = "gamenight.name";
const PENDING_TIMEOUT = 5000;
const HAND_ROW = 7;

const $ = (id) => document.getElementById(id);
const page = {
  config: null,
  creds: null,
  link: null,
  seatView: null,
  tableView: null,
  shownState: null,
  selection: null, // {card} or {pile}
  goOutMode: false,
  pending: null, // {id, timer}
  saying: null, // the id of the line sent to the assistant, until it is answered
  joinInfo: null, // what the join page knows of the table before joining
  lastEvent: null,
  presenceFixedAt: 0,
};

// ------------------------------------------------------------------ credentials

function tableFromPath() {
  const match = location.pathname.match(/^\/join\/([A-Za-z0-9]{3,12})\/?$/);
  return match ? match[1].toUpperCase() : null;
}

function savedSeats() {
  try {
    return JSON.parse(localStorage.getItem(STORE) || "{}") || {};
  } catch {
    return {};
  }
}

function saveCreds(creds) {
  const seats = savedSeats();
  seats[creds.table] = creds;
  localStorage.setItem(STORE, JSON.stringify(seats));
}

function forgetCreds(table) {
  const seats = savedSeats();
  delete seats[table];
  localStorage.setItem(STORE, JSON.stringify(seats));
}

// ------------------------------------------------------------------ joining

function showJoin(table, messageKey = null) {
  $("join-form").hidden = false;
  $("play").hidden = true;
  $("waiting").hidden = true;
  $("code-field").hidden = Boolean(table);
  $("join-code").value = table || "";
  $("join-name").value = localStorage.getItem(NAME_KEY) || "";
  $("join-error").textContent = messageKey ? t(messageKey) : "";
  (table ? $("join-name") : $("join-code")).focus();
  if (table) showTableInfo(table);
}

/** Before a name is typed: which table and game this is, and whether it can be joined. */
async function showTableInfo(table) {
  let summary = null;
  try {
    const response = await fetch(`/api/tables/${table}`);
    summary = await response.json();
  } catch {
    return; // the join itself will say what is wrong
  }
  page.joinInfo = summary;
  renderJoinInfo();
}

function renderJoinInfo() {
  const summary = page.joinInfo;
  const info = $("join-info");
  if (!summary || $("join-form").hidden) return;
  const button = $("join-form").querySelector("button[type=submit]");
  if (summary.error) {
    info.hidden = true;
    $("join-error").textContent = errorText(summary.error);
    return;
  }
  const lines = [t("ui.joining", { table: summary.table, game: t(`game.${summary.game}`) })];
  if (summary.players.length) {
    lines.push(t("ui.already_here", { count: summary.players.length, names: listOf(summary.players) }));
  } else if (!summary.locked) {
    lines.push(t("ui.first_here"));
  }
  if (summary.locked) lines.push(t("error.table_locked"));
  else if (summary.status !== "lobby") lines.push(t("ui.join_to_watch"));
  info.replaceChildren(...lines.map((line) => el("span", { class: "line", text: line })));
  info.classList.toggle("locked", summary.locked);
  info.hidden = false;
  // A locked table says so at once: no name to type for nothing.
  $("join-name").disabled = summary.locked;
  button.disabled = summary.locked;
}

/** A name over the limit is refused with a word, never cut short silently. */
function checkNameLength() {
  const max = page.config?.max_name || 24;
  const name = $("join-name").value.trim();
  const tooLong = name.length > max;
  $("join-name").setAttribute("aria-invalid", String(tooLong));
  const shown = $("join-error");
  if (tooLong) shown.textContent = t("ui.name_too_long", { max, count: name.length });
  else if (shown.dataset.kind === "length") shown.textContent = "";
  shown.dataset.kind = tooLong ? "length" : "";
  return !tooLong;
}

async function onJoin(event) {
  event.preventDefault();
  const code = $("join-code").value.trim().toUpperCase();
  const name = $("join-name").value.trim();
  if (!/^[A-Z0-9]{3,12}$/.test(code)) {
    $("join-error").textContent = errorText({ code: "unknown_table", params: { table: code } });
    return;
  }
  if (!checkNameLength()) return;
  const button = event.submitter || $("join-form").querySelector("button");
  button.disabled = true;
  const result = await postJson(`/api/tables/${code}/join`, { name, lang: language() });
  button.disabled = false;
  if (!result.ok) {
    $("join-error").textContent = errorText(result.body.error);
    return;
  }
  localStorage.setItem(NAME_KEY, name);
  const creds = result.body;
  saveCreds(creds);
  history.replaceState(null, "", `/join/${creds.table}`);
  connect(creds);
}

/** A seat link the host gave this phone (`#seat=2&token=…`), or null. */
function seatLinkFromHash() {
  const fields = new URLSearchParams(location.hash.slice(1));
  const seat = Number.parseInt(fields.get("seat") ?? "", 10);
  const token = fields.get("token");
  return Number.isInteger(seat) && token ? { seat, token } : null;
}

/** Take over the offline seat the link opens: a new login for it, then play on. */
async function claimSeat(table, { seat, token }) {
  history.replaceState(null, "", `/join/${table}`); // the link is used up: not kept
  showJoin(table, "ui.claiming_seat");
  const result = await postJson(`/api/tables/${table}/claim`, { seat, token, lang: language() });
  if (!result.ok) {
    $("join-error").textContent = errorText(result.body.error);
    return;
  }
  saveCreds(result.body);
  connect(result.body);
}

// ------------------------------------------------------------------ broker

function seatTopic(name) {
  return topics.seat(page.creds.table, page.creds.seat, name);
}

// This page's id: when the seat is open in two tabs (or phones), the tables service tells
// the older one "opened_elsewhere" under this id, and it steps back instead of taking the
// connection back from the newer one forever.
const TAB_ID = newId("tab");

function publishPresence() {
  page.link.publish(seatTopic("presence"), { v: 1, online: true, tab: TAB_ID }, { retain: true });
}

function requestSync() {
  if (page.link) page.link.publishIntent(seatTopic("intent"), { v: 1, id: newId("sync"), op: "sync" });
}

function connect(creds) {
  page.creds = creds;
  page.seatView = null;
  page.tableView = null;
  if (page.link) page.link.end();
  const table = creds.table;
  $("join-form").hidden = true;
  $("my-name").textContent = "";
  $("table-label").textContent = table;
  const subscriptions = [
    topics.tableView(table),
    topics.tableEvents(table),
    topics.seat(table, creds.seat, "view"),
    topics.seat(table, creds.seat, "reply"),
  ];
  if (creds.host) subscriptions.push(topics.hostReply(table));
  const link = new Link({
    url: page.config.ws_urls || page.config.ws_url,
    intentQos: page.config.intent_qos,
    username: creds.username,
    password: creds.password,
    // The same id after a reload takes over the old connection at once.
    clientId: creds.username,
    will: { topic: topics.seat(table, creds.seat, "presence"), message: { v: 1, online: false } },
    subscriptions,
    onConnect: () => {
      publishPresence();
      requestSync();
    },
    onStatus: (status) => {
      showConnection(status === "refused" ? "error" : status, t);
      if (status === "refused") lostSeat("ui.seat_lost");
    },
  });
  link.on(topics.tableView(table), onTableView);
  link.on(topics.seat(table, creds.seat, "view"), onSeatView);
  link.on(topics.seat(table, creds.seat, "reply"), onReply);
  link.on(topics.tableEvents(table), onEvents);
  link.on(topics.hostReply(table), (reply) => {
    if (reply.status === "error") toast(errorText(reply.error));
    else if (page.tableView) showSeatLink(reply, table, page.tableView.players);
  });
  page.link = link;
}

function lostSeat(messageKey) {
  const table = page.creds.table;
  forgetCreds(table);
  if (page.link) page.link.end();
  page.link = null;
  keepAwake(false);
  showJoin(table, messageKey);
}

// ------------------------------------------------------------------ messages

function onTableView(view) {
  if (isOlder(view, page.tableView)) return;
  page.tableView = view;
  setNames(view.players);
  setGame(view.game);
  const me = view.players.find((player) => player.seat === page.creds.seat);
  // A late last will from an old connection can mark us offline: say otherwise.
  if (me && !me.online && page.link && Date.now() - page.presenceFixedAt > 3000) {
    page.presenceFixedAt = Date.now();
    publishPresence();
  }
  render();
}

function onSeatView(view) {
  if (view.kicked) {
    // Said plainly, and when to come back: mid-game, once this game is over.
    const between = ["lobby", "finished"].includes(page.tableView?.status);
    lostSeat(between ? "ui.kicked" : "ui.kicked_until_over");
    return;
  }
  if (isOlder(view, page.seatView)) return;
  if (page.seatView && page.seatView.game_no !== view.game_no) {
    // A new game: nothing of the old one (a selection, the last event) carries over.
    page.shownState = null;
    page.selection = null;
    $("last-event").textContent = "";
  }
  if (page.link) page.link.settleBefore(view.seq);
  const moved = !page.seatView || view.seq !== page.seatView.seq;
  page.seatView = view;
  if (moved) {
    page.goOutMode = false;
    if (page.selection && !stillSelectable(page.selection)) page.selection = null;
  }
  render();
}

function onReply(reply) {
  if (reply.id === TAB_ID && reply.error?.code === "opened_elsewhere") {
    if (page.link) page.link.end();
    page.link = null;
    showConnection("error", t);
    toast(errorText(reply.error), 600000);
    return;
  }
  if (page.link) page.link.settle(reply.id);
  if (page.saying && reply.id === page.saying && reply.data?.heard) {
    showHeard(reply.data.heard); // what the assistant heard; the answer follows
    return;
  }
  if (page.hintAsked && reply.id === page.hintAsked.id) {
    const asked = page.hintAsked;
    page.hintAsked = null;
    const action = reply.status === "ok" ? reply.data?.action : null;
    if (!action && reply.status === "error") toast(errorText(reply.error));
    else if (!action) showAnswer(t("ui.hint_none")); // an answer, not a refusal
    else if (page.seatView?.seq === asked.seq) page.hint = { seq: asked.seq, action };
    render();
    return;
  }
  if (page.saying && reply.id === page.saying) {
    page.saying = null;
    if (reply.status === "error") toast(errorText(reply.error));
    else if (reply.data?.kind === "question") {
      // "Which one?": the line was understood, only not which move; not a refusal either.
      showAnswer(describe("question", { code: reply.data.question, params: { ...reply.data.params } }), "question");
    } else if (reply.data?.answer) showAnswer(answerText(reply.data));
    return; // an accepted line shows as the new view
  }
  if (!page.pending || reply.id !== page.pending.id) return;
  clearTimeout(page.pending.timer);
  page.pending = null;
  if (reply.status === "error") {
    toast(errorText(reply.error));
    if (reply.error.code === "stale_seq") requestSync();
  }
  render();
}

function onEvents(message) {
  const last = message.events[message.events.length - 1];
  if (!last) return;
  page.lastEvent = last; // kept as code and parameters: a change of language rewords it
  $("last-event").textContent = eventText(last);
}

// ------------------------------------------------------------------ acting

function legalActions() {
  return page.seatView?.state?.legal_actions || [];
}

function stillSelectable(selection) {
  const state = page.seatView?.state;
  if (!state) return false;
  if (selection.card) return (state.hand || []).includes(selection.card);
  return legalActions().some((action) => action.type === "move" && action.from === selection.pile);
}

/** Send one action, carrying the seq of the view it was chosen on. */
function act(action) {
  if (page.pending || !page.seatView || !page.link) return;
  if (page.tableView?.paused) {
    toast(t("error.table_paused"));
    return;
  }
  const id = newId("a");
  const player = page.seatView.player || page.creds.player_id;
  page.link.deliver(seatTopic("intent"), { v: 1, id, op: "act", seq: page.seatView.seq, player, action });
  page.pending = {
    id,
    timer: setTimeout(() => {
      page.pending = null;
      requestSync();
      render();
    }, PENDING_TIMEOUT),
  };
  page.selection = null;
  page.goOutMode = false;
  render();
}

/** "What should I play?": the normal computer player's choice for this seat, shown
 * highlighted (its card, its pile, its button) until the view moves on. */
function askHint() {
  if (!page.link || !page.seatView) return;
  page.hintAsked = { id: newId("q"), seq: page.seatView.seq };
  page.link.publishIntent(seatTopic("intent"), { v: 1, id: page.hintAsked.id, op: "hint" });
}

function hinted() {
  const hint = page.hint;
  return hint && page.seatView && hint.seq === page.seatView.seq ? hint.action : null;
}

/** Mark what the hint names: the card in hand, the pile, or the action's button. */
function markHint() {
  const action = hinted();
  for (const marked of document.querySelectorAll(".hinted")) marked.classList.remove("hinted");
  if (!action) return;
  const card = action.card || action.discard;
  if (card) {
    const shown = [...$("hand").querySelectorAll("[data-card]")].find((node) => node.dataset.card === card);
    shown?.classList.add("hinted");
  }
  for (const pile of [action.pile, action.from, action.to].filter(Boolean)) {
    $("board").querySelector(`[data-pile="${pile}"]`)?.classList.add("hinted");
  }
  const kind = action.type === "draw" && action.source === "discard" ? "take" : action.type;
  $("actions").querySelector(`[data-action="${kind}"]`)?.classList.add("hinted");
}

/** A typed or spoken line: the assistant turns it into this seat's move, or answers. */
function sayLine(text) {
  const line = text.trim();
  if (!line || !page.link || !page.creds) return;
  page.saying = newId("s");
  $("answer").hidden = true; // it answered an earlier line: never shown beside a newer one
  page.link.publish(seatTopic("say"), { v: 1, id: page.saying, text: line.slice(0, 200), lang: language() });
}

/** The assistant's answer: a note at the top, clear of the typing line and the hand. */
function showAnswer(text, kind = "answer") {
  const note = $("answer");
  $("answer-text").textContent = text;
  note.classList.toggle("question-note", kind === "question");
  note.hidden = false;
  clearTimeout(showAnswer.timer);
  showAnswer.timer = setTimeout(() => {
    note.hidden = true;
  }, 10000);
}

function wireSayForm() {
  $("answer-close").addEventListener("click", () => {
    $("answer").hidden = true;
  });
  const input = $("say-text");
  $("say-form").addEventListener("submit", (event) => {
    event.preventDefault();
    sayLine(input.value);
    input.value = "";
  });
  const listenInBrowser = () =>
    listen(
      (heard) => {
        input.value = heard;
        sayLine(heard);
      },
      () => toast(t("ui.say_not_heard")),
    );
  // Shown only where the microphone works (capabilities.js); else the dictation hint.
  if (showVoiceInput($("say-listen"), $("say-hint"))) {
    wireVoice($("say-listen"), {
      send: sendClip,
      newId,
      lang: language,
      onListening: () => toast(t("ui.voice_listening")),
      onFailure: () => toast(t("ui.voice_no_microphone"), 8000),
      // Offline recognition is English: another language uses the browser's, if any.
      preferBrowser: () => Boolean(recogniserClass()) && language() !== "en",
      listenInBrowser,
    });
  }
}

/** A recorded clip, on the seat's voice topic: the assistant hears it, then answers. */
function sendClip(bytes, clipId) {
  if (!page.link || !page.creds) return;
  page.saying = clipId;
  $("say-heard").hidden = true;
  page.link.client.publish(seatTopic("voice"), bytes, { qos: 1 });
}

function showHeard(text) {
  const line = $("say-heard");
  line.textContent = t("ui.voice_heard", { text });
  line.hidden = false;
}

function select(selection) {
  page.selection = selection;
  render();
}

function onCard(code) {
  if (page.pending) return;
  if (page.goOutMode) {
    act({ type: "go_out", discard: code });
    return;
  }
  select(page.selection?.card === code ? null : { card: code });
}

function onPile(name) {
  if (page.pending) return;
  const selection = page.selection;
  if (selection?.card) {
    act({ type: "play", card: selection.card, pile: name });
    return;
  }
  if (selection?.pile) {
    if (selection.pile === name) select(null);
    else act({ type: "move", from: selection.pile, to: name });
    return;
  }
  if (legalActions().some((action) => action.type === "move" && action.from === name)) {
    select({ pile: name });
  }
}

function onStock() {
  const legal = legalActions();
  const draw = legal.find((action) => action.type === "draw" && action.source !== "discard");
  act(draw || { type: "draw" });
}

function onDiscard() {
  if (page.selection?.card) act({ type: "discard", card: page.selection.card });
  else act({ type: "draw", source: "discard" });
}

/** Where the selected card or pile may go, from the legal actions of the seat's view. */
function targets() {
  const piles = new Set();
  let discard = false;
  const selection = page.selection;
  for (const action of legalActions()) {
    if (selection?.card && action.type === "play" && action.card === selection.card) piles.add(action.pile);
    if (selection?.card && action.type === "discard" && action.card === selection.card) discard = true;
    if (selection?.pile && action.type === "move" && action.from === selection.pile) piles.add(action.to);
  }
  return { piles, discard };
}

function actionButtons(state) {
  const legal = legalActions();
  const buttons = [];
  const add = (kind, text, onClick, primary = false) => {
    const button = el("button", { type: "button", class: primary ? "primary" : "", text, "data-action": kind });
    button.disabled = Boolean(page.pending) || Boolean(page.tableView?.paused);
    button.addEventListener("click", onClick);
    buttons.push(button);
  };
  const draw = legal.find((action) => action.type === "draw" && action.source !== "discard");
  if (draw) {
    const endsTurn = state.phase === "play";
    add("draw", t(endsTurn ? "ui.draw_and_end" : "ui.draw"), () => act(draw), true);
  }
  const take = legal.find((action) => action.type === "draw" && action.source === "discard");
  if (take) add("take", t("ui.take_discard", { card: cardText(state.discard_top) }), () => act(take));
  const card = page.selection?.card;
  if (card && legal.some((action) => action.type === "discard" && action.card === card)) {
    add("discard", t("ui.discard_card", { card: cardText(card) }), () => act({ type: "discard", card }), true);
  }
  const goOuts = legal.filter((action) => action.type === "go_out");
  if (goOuts.length) {
    const chosen = goOuts.find((action) => action.discard === card);
    add("go_out", chosen ? t("ui.go_out_with", { card: cardText(card) }) : t("ui.go_out"), () => {
      if (chosen) act(chosen);
      else if (goOuts.length === 1) act(goOuts[0]);
      else {
        page.goOutMode = true;
        page.selection = null;
        toast(t("ui.pick_go_out_discard"));
        render();
      }
    }, true);
  }
  if (legal.some((action) => action.type === "end_turn")) {
    add("end_turn", t("ui.end_turn"), () => act({ type: "end_turn" }), !draw);
  }
  if (legal.length) add("hint", t("ui.hint_ask"), askHint);
  return buttons;
}

// ------------------------------------------------------------------ drawing

function renderHand(state) {
  const legal = legalActions();
  const hand = sortHand(state.hand || [], gameModule(state.game).sortRules(state));
  const goOutCards = new Set(legal.filter((a) => a.type === "go_out").map((a) => a.discard));
  const usable = new Set(legal.flatMap((a) => [a.card, a.discard]).filter(Boolean));
  const wild = gameModule(state.game).sortRules(state).wild;
  const before = page.shownState?.hand || null;
  const cards = hand.map((code) => {
    const card = cardElement(code, { tag: "button", wild });
    card.type = "button";
    if (page.selection?.card === code) card.classList.add("selected");
    if (usable.has(code)) card.classList.add("playable");
    if (page.goOutMode && goOutCards.has(code)) card.classList.add("go-out-choice");
    if (before && !before.includes(code)) card.classList.add("arrive");
    card.setAttribute("aria-pressed", String(page.selection?.card === code));
    card.addEventListener("click", () => onCard(code));
    dragSource(card, { card: code }, { begin: beginDrag, drop: dropOn });
    return card;
  });
  // Rows of at most seven cards, each row overlapping a little: big cards, one glance.
  const rows = [];
  const perRow = Math.ceil(cards.length / Math.ceil(cards.length / HAND_ROW));
  for (let start = 0; start < cards.length; start += perRow) {
    rows.push(el("div", { class: "hand-row" }, cards.slice(start, start + perRow)));
  }
  $("hand").replaceChildren(...rows);
  $("hand").classList.toggle("pending", Boolean(page.pending));
}

function beginDrag(selection) {
  page.selection = selection;
  markTargets();
}

function dropOn(selection, target) {
  if (!target) {
    // Dropped nowhere, or the drag was cancelled: nothing stays picked up.
    page.selection = null;
    render();
    return;
  }
  page.selection = selection;
  if (target === "stock") onStock();
  else if (target === "discard") onDiscard();
  else onPile(target);
}

/** Re-mark the board's targets without redrawing it (during a drag). */
function markTargets() {
  const { piles, discard } = targets();
  for (const cell of $("board").querySelectorAll("[data-pile]")) {
    const name = cell.dataset.pile;
    cell.classList.toggle("target", piles.has(name) || (name === "discard" && discard));
  }
}

const DOING = { draw: "ui.is_drawing", discard: "ui.is_discarding" };

/** "Daan is drawing": what the seat to play is doing, not an order to it. */
function othersTurnText(state) {
  const text = t(DOING[state.phase] || "ui.is_playing", { name: nameOf(state.current_seat) });
  return state.last_turn ? `${text} · ${t("phase.last_turn")}` : text;
}

function renderPlay(view, table) {
  const state = view.state;
  $("play").dataset.seq = String(view.seq); // what the hand shows: tests and bug reports read it
  const module = gameModule(state.game);
  const paused = Boolean(table?.paused);
  // While the game is paused nobody is to play: no "your turn", no active buttons.
  const mine = state.current_seat === view.seat && !paused;
  const turn = $("turn-line");
  turn.textContent = paused
    ? t("ui.game_paused")
    : mine
      ? t("ui.your_turn", { phase: module.phaseText(state) })
      : state.current_seat === null
        ? t(`status.${table?.status || "round_over"}`)
        : othersTurnText(state);
  turn.classList.toggle("mine", mine);
  turn.classList.toggle("paused", paused);
  $("others").replaceChildren(
    ...allNames(state.hand_counts.length)
      .map((name, seat) => ({ name, seat }))
      .filter(({ seat }) => seat !== view.seat)
      .map(({ name, seat }) => {
        const player = table?.players.find((p) => p.seat === seat);
        const chip = el("div", { class: "player-chip", role: "listitem" }, [
          el("span", { class: "name", text: name }),
          ...(player ? botTags(player) : []),
          player ? standInTag(player) : null,
          el("span", { class: "mini-back", "aria-hidden": "true" }),
          el("span", { class: "stat", text: t("ui.n_cards", { count: state.hand_counts[seat] }) }),
        ]);
        chip.classList.toggle("turn", state.current_seat === seat);
        chip.classList.toggle("online", Boolean(table?.players.find((p) => p.seat === seat)?.online));
        return chip;
      }),
  );
  const { piles, discard } = targets();
  module.renderBoard($("board"), state, {
    previous: page.shownState,
    targets: piles,
    source: page.selection?.pile || null,
    discardTarget: discard,
    onPile,
    onStock,
    onDiscard,
    hint: mine ? state.hint : null,
    paused,
    names: allNames(state.hand_counts.length),
    dragPile: (cell, name) =>
      legalActions().some((action) => action.type === "move" && action.from === name) &&
      dragSource(cell, { pile: name }, { begin: beginDrag, drop: dropOn }),
  });
  $("actions").replaceChildren(...(state.current_seat === view.seat ? actionButtons(state) : []));
  renderHand(state);
  markHint();
  page.shownState = state;
}

function renderWaiting(view, table) {
  $("play").hidden = true;
  $("waiting").hidden = false;
  const status = table?.status || "lobby";
  // A latecomer: the game under way has no hand for this seat; it watches until the next.
  const watching = Boolean(table?.state) && !view?.state && status !== "lobby";
  const text = status === "lobby"
    ? t(view?.host ? "ui.waiting_host_start" : "ui.waiting_start")
    : watching
      ? t("ui.watching")
      : t(`status.${status}`);
  $("waiting-text").textContent = text;
  renderChosenGame(table, status);
  const watchBoard = $("watch-board");
  watchBoard.hidden = !(watching && status === "playing");
  if (!watchBoard.hidden) {
    const module = gameModule(table.game);
    module.renderBoard(watchBoard, table.state, { names: allNames(table.state.hand_counts.length) });
  }
  $("lobby-players").replaceChildren(
    ...(table?.players || []).map((player) =>
      el("div", { class: `player-chip${player.online ? " online" : ""}`, role: "listitem" }, [
        el("span", { class: "dot", "aria-hidden": "true" }),
        el("span", { class: "name", text: player.name }),
        ...botTags(player),
      ]),
    ),
  );
  const parts = [];
  if (view?.state && (status === "round_over" || status === "finished")) {
    parts.push(gameModule(view.state.game).scoreSheet(view.state, allNames(view.state.hand_counts.length)));
  }
  if (view?.host && table) {
    const controls = el("div", { class: "host-controls" });
    renderHostControls(controls, table, sendHost);
    parts.push(controls);
  }
  $("score-body").replaceChildren(...parts);
}

/** Which game and rules the host chose, for everyone waiting (not the host's own form). */
function renderChosenGame(table, status) {
  const box = $("waiting-game");
  if (!table || status !== "lobby" || page.seatView?.host) {
    box.replaceChildren();
    return;
  }
  const module = gameModule(table.game);
  const shown = module.shownOptions ? module.shownOptions(table.options) : module.SHOWN_OPTIONS;
  box.replaceChildren(
    el("p", { class: "muted", text: t("ui.chosen_game") }),
    el("h2", { text: t(`game.${table.game}`) }),
    el("ul", {}, optionLines(table, shown).map((line) => el("li", { text: line }))),
  );
}

function render() {
  const view = page.seatView;
  const table = page.tableView;
  if (!page.creds) return;
  $("my-name").textContent = view?.name || "";
  $("host-open").hidden = !view?.host;
  $("paused").hidden = !table?.paused;
  document.body.classList.toggle("five-crowns", (table?.game || view?.state?.game) === "five-crowns");
  const playing = Boolean(view?.state) && table?.status === "playing";
  keepAwake(playing);
  if (playing) {
    $("waiting").hidden = true;
    $("play").hidden = false;
    renderPlay(view, table);
  } else {
    page.shownState = null;
    renderWaiting(view, table);
  }
  if ($("host-panel").open && table) renderHostControls($("host-panel-body"), table, sendHost);
  if (table) closeTakenSeatLink(table.players);
}

function sendHost(op, params) {
  if (!page.link) return;
  const message = { v: 1, id: newId("h"), op, player: page.creds.player_id };
  if (params) message.params = params;
  page.link.publishIntent(topics.hostIntent(page.creds.table), message);
  return message.id;
}

// ------------------------------------------------------------------ screen

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState !== "visible" || !page.link) return;
  requestSync(); // back from sleep: ask for the newest view rather than trust what is held
  render();
});

async function main() {
  await setLanguage(preferredLanguage());
  translatePage();
  languageSwitch($("lang"), () => {
    renderJoinInfo();
    if (page.lastEvent) $("last-event").textContent = eventText(page.lastEvent);
    render();
  });
  fourColourToggle($("four-colour"));
  wireSayForm();
  closableDialogs();
  $("join-form").addEventListener("submit", onJoin);
  $("join-name").addEventListener("input", checkNameLength);
  $("host-open").addEventListener("click", () => {
    if (!page.tableView) return;
    renderHostControls($("host-panel-body"), page.tableView, sendHost);
    $("host-panel").showModal();
  });
  page.config = await (await fetch("/api/config")).json();
  const table = tableFromPath();
  const handed = table ? seatLinkFromHash() : null;
  if (handed) {
    await claimSeat(table, handed);
    return;
  }
  const creds = table ? savedSeats()[table] : null;
  if (creds) connect(creds);
  else showJoin(table);
}

main();
