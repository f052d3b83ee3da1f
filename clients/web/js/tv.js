// The TV page: creates (or finds again) its table, shows the lobby with the join QR
// code, then the board, the players, the log and the score sheets. It reads only the
// public topics: it never sees a hidden card.

import { Link, isOlder, newId, postJson, topics } from "./net.js";
import { languageSwitch, preferredLanguage, setLanguage, t, translatePage } from "./i18n.js";
import { closableDialogs, el, fourColourToggle, showConnection, toast } from "./dom.js";
import { botTags, closeTakenSeatLink, hostControlsKey, renderHostControls, showSeatLink, standInTag } from "./host.js";
import { allNames, errorText, eventText, gameModule, nameOf, optionLines, setGame, setNames } from "./table.js";
import { say, speechToggle } from "./speech.js";
import { fetchNetwork, renderNetworkNotices } from "./notices.js";

const STORE = "gamenight.tv";
const LOG_LENGTH = 12;
// Events worth saying out loud; draws and deal details only go to the log.
const SPOKEN = new Set([
  "player_joined", "game_started", "dealer_chosen", "played", "filled", "king_to_corner",
  "moved", "moved_to_corner", "extra_turn", "turn_ended", "went_out", "round_blocked",
  "round_ended", "game_ended", "took_discard", "discarded", "last_turns", "table_paused",
  "table_resumed", "session_ended", "player_kicked",
]);

const $ = (id) => document.getElementById(id);
const page = {
  config: null, saved: null, link: null, view: null, hostKey: null, sheetKey: null, network: null,
  // The log as events (codes and parameters, newest last): words are chosen when drawn,
  // so a change of language rewords every line.
  logEvents: [],
};

function sendHost(op, params) {
  if (!page.link) return;
  const message = { v: 1, id: newId("tv"), op };
  if (params) message.params = params;
  page.link.publishIntent(topics.hostIntent(page.saved.table), message);
  return message.id;
}

// ------------------------------------------------------------------ lobby

function renderLobby(view) {
  const table = page.saved.table;
  const qr = $("qr");
  const source = `/api/tables/${table}/qr.svg`;
  if (qr.getAttribute("src") !== source) qr.src = source;
  qr.alt = t("ui.qr_alt", { url: page.saved.join_url });
  // The server's address of now (it may have moved to https since this table was made).
  const base = page.network?.public_url ? `${page.network.public_url.replace(/\/$/, "")}/join` : null;
  $("join-address").textContent = base || page.saved.join_url.replace(/\/[A-Z0-9]+$/, "");
  $("table-code").textContent = table;
  renderNetworkNotices($("network-notices"), page.network);
  $("table-code").setAttribute("aria-label", t("ui.table_code_is", { code: table.split("").join(" ") }));
  const key = hostControlsKey(view);
  if (page.hostKey !== key) {
    page.hostKey = key;
    renderHostControls($("lobby-controls"), view, sendHost);
  }
}

// ------------------------------------------------------------------ game

function playerChips(view, module) {
  const state = view.state;
  return view.players.map((player) => {
    const stats = module.seatStats(state, player.seat).map((stat) => el("span", { class: "stat", text: stat.text }));
    const chip = el("div", { class: "player-chip", role: "listitem", "data-seat": player.seat }, [
      el("span", { class: "dot", "aria-hidden": "true" }),
      el("span", { class: "name", text: player.name }),
      state.dealer === player.seat ? el("span", { class: "badge dealer", text: "D", title: t("ui.dealer") }) : null,
      player.host ? el("span", { class: "badge", text: "♛", title: t("ui.host") }) : null,
      ...botTags(player),
      standInTag(player),
      ...stats,
    ]);
    chip.classList.toggle("online", player.online);
    const turn = state.current_seat === player.seat;
    chip.classList.toggle("turn", turn);
    chip.classList.toggle("paused", turn && Boolean(view.paused));
    if (turn) chip.prepend(el("span", { class: "turn-arrow", "aria-hidden": "true", text: "▶" }));
    chip.title = player.name;
    return chip;
  });
}

function renderGame(view, previous) {
  const module = gameModule(view.state.game || view.game);
  const state = view.state;
  $("players").replaceChildren(...playerChips(view, module));
  const before = previous && sameGame(previous, view) ? previous.state : null;
  // Names of the seats in the game (a latecomer waiting for the next one has no hand).
  module.renderBoard($("board"), state, { previous: before, names: allNames(state.hand_counts.length) });
  const lines = optionLines(view, module.shownOptions ? module.shownOptions(view.options) : module.SHOWN_OPTIONS);
  $("options-shown").replaceChildren(
    el("h2", { text: t(`game.${view.game}`) }),
    el("ul", {}, lines.map((line) => el("li", { text: line }))),
  );
}

function renderHeadline(view) {
  const headline = $("headline");
  const state = view.state;
  if (view.status === "lobby" || !state) {
    headline.replaceChildren(t("ui.lobby_headline", { game: t(`game.${view.game}`) }));
    return;
  }
  const module = gameModule(view.game);
  const parts = [module.roundText(state)];
  if (view.status === "playing" && view.paused) {
    parts.push(" · ", el("span", { class: "paused-name", text: t("ui.paused") }));
  } else if (view.status === "playing" && state.current_seat !== null) {
    parts.push(" · ", el("span", { class: "turn-name", text: t("ui.turn_of", { name: nameOf(state.current_seat) }) }));
    parts.push(" · ", module.phaseText(state));
  } else {
    parts.push(" · ", t(`status.${view.status}`));
  }
  headline.replaceChildren(...parts);
}

function renderScoreSheet(view) {
  const sheet = $("score-sheet");
  const over = view.status === "round_over" || view.status === "finished";
  if (!over || !view.state) {
    if (sheet.open) sheet.close();
    page.sheetKey = null;
    return;
  }
  const key = `${view.status}:${view.state.round}:${view.seq}`;
  if (page.sheetKey === key) return;
  page.sheetKey = key;
  const module = gameModule(view.state.game || view.game);
  $("score-title").textContent =
    view.status === "finished" ? t("ui.game_over") : t("ui.round_over", { round: view.state.round });
  $("score-body").replaceChildren(module.scoreSheet(view.state, allNames(view.state.hand_counts.length)));
  if (view.status === "finished" && view.players.length === 1 && Number.isInteger(view.solo_best)) {
    $("score-body").append(el("p", { class: "solo-best", text: t("ui.solo_best", { score: view.solo_best }) }));
  }
  const next = view.status === "finished"
    ? el("button", { type: "button", class: "primary", "data-op": "rematch", text: t("ui.rematch") })
    : el("button", { type: "button", class: "primary", "data-op": "next_round", text: t("ui.next_round") });
  next.addEventListener("click", () => sendHost(next.dataset.op));
  $("score-actions").replaceChildren(next);
  if ($("host-panel").open) $("host-panel").close(); // the sheet has the next step's button
  if (!sheet.open) sheet.showModal();
}

/** Both views show the same deal of the same game (not a rematch, not another game). */
function sameGame(a, b) {
  return a.game === b.game && a.game_no === b.game_no && a.state?.game === b.state?.game;
}

function render(view) {
  const previous = page.view;
  page.view = view;
  // A new game (another game, a rematch): the old game's log lines are not this one's.
  // (The first game keeps the lobby's lines: who joined.)
  if (previous?.game_no && previous.game_no !== view.game_no) clearLog();
  setNames(view.players);
  setGame(view.game);
  document.body.classList.toggle("five-crowns", view.game === "five-crowns");
  $("boot").hidden = true;
  $("paused").hidden = !view.paused;
  if (view.status === "closed") {
    showBoot(t("ui.table_closed"), true);
    return;
  }
  const inLobby = view.status === "lobby" || !view.state;
  $("lobby").hidden = !inLobby;
  $("game").hidden = inLobby;
  $("host-open").hidden = inLobby;
  renderHeadline(view);
  if (inLobby) renderLobby(view);
  else renderGame(view, previous);
  if ($("host-panel").open) renderHostControls($("host-panel-body"), view, sendHost);
  closeTakenSeatLink(view.players);
  renderScoreSheet(view);
}

// ------------------------------------------------------------------ events

function clearLog() {
  page.logEvents = [];
  renderLog();
}

function onEvents(message) {
  // A new game's first events: the old game's lines are not this one's.
  const again = (page.view?.game_no || 0) > 1; // a rematch or another game, not the first
  if (again && message.events.some((event) => event.code === "game_started")) page.logEvents = [];
  for (const event of message.events) {
    page.logEvents.push(event);
    if (SPOKEN.has(event.code)) say(eventText(event, { spoken: true }));
  }
  page.logEvents.splice(0, Math.max(0, page.logEvents.length - LOG_LENGTH));
  renderLog();
}

/** The log, newest first in the list (the style puts it at the bottom, always in view). */
function renderLog() {
  $("log").replaceChildren(
    ...page.logEvents
      .slice()
      .reverse()
      .map((event) => el("li", { text: eventText(event), "data-code": event.code })),
  );
}

function onHostReply(reply) {
  if (reply.status === "error") toast(errorText(reply.error));
  else if (page.view) showSeatLink(reply, page.saved.table, page.view.players);
}

// ------------------------------------------------------------------ start

function showBoot(message, offerNewTable) {
  $("boot").hidden = false;
  $("lobby").hidden = true;
  $("game").hidden = true;
  $("boot-message").textContent = message;
  $("new-table").hidden = !offerNewTable;
}

async function createTable() {
  const result = await postJson("/api/tables", {});
  if (!result.ok) {
    showBoot(errorText(result.body.error), true);
    return null;
  }
  const saved = {
    table: result.body.table,
    username: result.body.username,
    password: result.body.password,
    join_url: result.body.join_url,
  };
  localStorage.setItem(STORE, JSON.stringify(saved));
  return saved;
}

function connect(saved) {
  page.saved = saved;
  page.view = null;
  page.hostKey = null;
  if (page.link) page.link.end();
  const table = saved.table;
  const link = new Link({
    url: page.config.ws_urls || page.config.ws_url,
    intentQos: page.config.intent_qos,
    username: saved.username,
    password: saved.password,
    // The broker binds each account to one client id (its username): see services/tables.
    clientId: saved.username,
    subscriptions: [topics.tableView(table), topics.tableEvents(table), topics.hostReply(table)],
    onConnect: () => sendHost("sync"),
    onStatus: (status) => {
      showConnection(status === "refused" ? "error" : status, t);
      if (status === "refused") startOver();
    },
  });
  link.on(topics.tableView(table), (view) => {
    if (view.table !== table || isOlder(view, page.view)) return;
    render(view);
  });
  link.on(topics.tableEvents(table), onEvents);
  link.on(topics.hostReply(table), onHostReply);
  page.link = link;
}

/** Our table is gone (its credentials no longer open the broker): make a new one. */
async function startOver() {
  if (page.link) page.link.end();
  page.link = null;
  localStorage.removeItem(STORE);
  const saved = await createTable();
  if (saved) connect(saved);
}

async function main() {
  await setLanguage(preferredLanguage());
  translatePage();
  languageSwitch($("lang"), () => {
    renderLog();
    if (page.view) (page.hostKey = null), (page.sheetKey = null), render(page.view);
  });
  speechToggle($("speech-toggle"));
  fourColourToggle($("four-colour"));
  closableDialogs();
  $("host-open").addEventListener("click", () => {
    renderHostControls($("host-panel-body"), page.view, sendHost);
    $("host-panel").showModal();
  });
  $("new-table").addEventListener("click", startOver);
  page.config = await (await fetch("/api/config")).json();
  page.network = await fetchNetwork();
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(STORE) || "null");
  } catch {
    saved = null;
  }
  saved = saved || (await createTable());
  if (saved) connect(saved);
}

main();
