// Host controls, the same on the TV and on the host phone: the game and its rule
// options (between games), the players (kick, bots), lock, pause, start, end.

import { has, t } from "./i18n.js";
import { el } from "./dom.js";

export const GAMES = ["kings-corner", "five-crowns"];
const MIN_PLAYERS = { "five-crowns": 1 }; // Five Crowns plays solo (rules.md)
export const BOT_LEVELS = ["easy", "normal", "hard"];
export const BOT_ICON = "🤖"; // not the host-controls gear

/** A computer player's badge (its icon) and its level, beside its name. */
export function botTags(player) {
  if (!player.bot) return [];
  return [
    el("span", { class: "badge bot", text: BOT_ICON, title: t("ui.bot") }),
    player.level ? el("span", { class: "bot-level", text: t(`level.${player.level}`) }) : null,
  ].filter(Boolean);
}

/** "played by a bot while Ana is away", for a seat a stand-in bot plays. */
export function standInTag(player) {
  return player.stand_in ? el("span", { class: "stand-in", text: t("ui.stand_in", { name: player.name }) }) : null;
}

function levelChooser(id, value, label, onChange) {
  const select = el(
    "select",
    { id, "aria-label": label },
    BOT_LEVELS.map((level) => el("option", { value: level, text: t(`level.${level}`) })),
  );
  select.value = value || "normal";
  select.addEventListener("change", () => onChange(select.value));
  return select;
}

/** The words for an option's value: its own entry, else on/off, else the value. */
export function optionValueText(name, value) {
  const key = `option.${name}.${value}`;
  if (has(key)) return t(key);
  if (typeof value === "boolean") return t(value ? "ui.on" : "ui.off");
  return String(value);
}

function optionField(spec, value, send, enabled) {
  const id = `opt-${spec.name}`;
  const label = el("label", { for: id, text: t(`option.${spec.name}`) });
  let input;
  if (spec.choices) {
    input = el(
      "select",
      { id },
      spec.choices.map((choice, index) =>
        el("option", { value: String(index), text: optionValueText(spec.name, choice) }),
      ),
    );
    input.value = String(Math.max(0, spec.choices.findIndex((choice) => choice === value)));
    input.addEventListener("change", () =>
      send("set_options", { options: { [spec.name]: spec.choices[Number(input.value)] } }),
    );
  } else {
    input = el("input", { id, type: "number", inputmode: "numeric" });
    if (spec.minimum !== null && spec.minimum !== undefined) input.min = spec.minimum;
    if (spec.maximum !== null && spec.maximum !== undefined) input.max = spec.maximum;
    input.value = String(value ?? spec.default);
    input.addEventListener("change", () => {
      const number = Number.parseInt(input.value, 10);
      if (Number.isInteger(number)) send("set_options", { options: { [spec.name]: number } });
    });
  }
  input.disabled = !enabled;
  return el("div", { class: `option${enabled ? "" : " locked"}` }, [label, input]);
}

function playerRow(player, view, send) {
  const tags = [];
  if (player.host) tags.push(el("span", { class: "badge", text: "♛", title: t("ui.host") }));
  if (player.bot) tags.push(el("span", { class: "badge bot", text: BOT_ICON, title: t("ui.bot") }));
  const stand = standInTag(player);
  if (stand) tags.push(stand);
  const remove = player.bot && view.status === "lobby" ? "remove_bot" : "kick";
  const button = el("button", {
    type: "button",
    class: "small danger",
    text: t(remove === "kick" ? "ui.kick" : "ui.remove_bot"),
    "aria-label": t(remove === "kick" ? "ui.kick_named" : "ui.remove_named", { name: player.name }),
  });
  if (isConfirming(player)) showConfirming(button, player);
  button.addEventListener("click", () => confirmThen(button, player, () => send(remove, { seat: player.seat })));
  const chip = el("div", { class: `player-chip ${player.online ? "online" : ""}`, role: "listitem" }, [
    el("span", { class: "dot", "aria-hidden": "true" }),
    el("span", { class: "name", text: player.name }),
    ...tags,
  ]);
  const level = player.bot
    ? levelChooser(`level-${player.seat}`, player.level, t("ui.bot_level_named", { name: player.name }), (chosen) =>
        send("set_bot_level", { seat: player.seat, level: chosen }),
      )
    : null;
  const row = [chip, level, button].filter(Boolean);
  if (!player.bot && !player.online) {
    // A phone that died: its seat (and hand) can go to another phone, by a one-time link.
    const handOver = el("button", {
      type: "button",
      class: "small",
      "data-op": "seat_link",
      text: t("ui.seat_link"),
      "aria-label": t("ui.seat_link_named", { name: player.name }),
    });
    handOver.addEventListener("click", () => {
      const id = send("seat_link", { seat: player.seat });
      if (id) askedSeatLinks.add(id);
    });
    row.push(handOver);
  }
  return el("div", { class: "player-row" }, row);
}

const CONFIRM_MS = 5000;
const askedSeatLinks = new Set(); // ids of the seat_link requests this page sent

/**
 * A host reply to a seat_link this page asked for: show the one-time link and its QR code
 * for the new phone (the token never goes into a URL the server sees: it is POSTed).
 * Returns true when the reply was one.
 */
export async function showSeatLink(reply, table, players) {
  if (!askedSeatLinks.delete(reply.id) || reply.status !== "ok" || !reply.data?.token) return false;
  const { seat, token, minutes } = reply.data;
  const response = await fetch(`/api/tables/${table}/seat-link`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ seat, token }),
  });
  const link = await response.json();
  if (!link.url) return true;
  const name = players.find((player) => player.seat === seat)?.name || t("ui.seat_n", { number: seat + 1 });
  let dialog = document.getElementById("seat-link");
  if (!dialog) {
    dialog = el("dialog", { id: "seat-link", "aria-labelledby": "seat-link-title" });
    document.body.append(dialog);
  }
  const close = el("button", { type: "button", class: "close", "aria-label": t("ui.close"), text: "✕" });
  close.addEventListener("click", () => dialog.close());
  const image = el("img", { class: "seat-link-qr", alt: t("ui.seat_link_qr_alt", { name }), width: "280", height: "280" });
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(link.svg)}`; // the CSP allows data:
  dialog.replaceChildren(
    el("div", { class: "dialog-head" }, [el("h2", { id: "seat-link-title", text: t("ui.seat_link_title", { name }) }), close]),
    image,
    el("p", { class: "seat-link-help", text: t("ui.seat_link_help", { minutes }) }),
    el("a", { class: "seat-link-url", href: link.url, text: link.url }),
  );
  dialog.dataset.seat = String(seat);
  for (const open of document.querySelectorAll("dialog[open]")) if (open !== dialog) open.close();
  if (!dialog.open) dialog.showModal();
  return true;
}

/** Close the seat link once its seat is taken (the new phone is online): it is used up. */
export function closeTakenSeatLink(players) {
  const dialog = document.getElementById("seat-link");
  if (!dialog?.open) return;
  const seat = Number(dialog.dataset.seat);
  if (players.some((player) => player.seat === seat && player.online)) dialog.close();
}

// The removal waiting for its second tap. Kept here, not on the button: the controls are
// drawn again at every move (bots play fast), and the question must survive that.
let confirming = null; // {seat, name, until}

function isConfirming(player) {
  return Boolean(
    confirming && confirming.seat === player.seat && confirming.name === player.name && Date.now() < confirming.until,
  );
}

function showConfirming(element, player) {
  element.classList.add("confirming");
  element.textContent = t("ui.kick_confirm", { name: player.name });
}

/** Removing someone takes two taps: the first asks "Remove Ana?" on the button itself. */
function confirmThen(element, player, action) {
  if (isConfirming(player)) {
    confirming = null;
    action();
    return;
  }
  const plain = element.textContent;
  confirming = { seat: player.seat, name: player.name, until: Date.now() + CONFIRM_MS };
  showConfirming(element, player);
  setTimeout(() => {
    if (element.isConnected && !isConfirming(player)) {
      element.classList.remove("confirming");
      element.textContent = plain;
    }
  }, CONFIRM_MS + 50);
}

/** Who plays for a player away mid-game, and after how long. */
function awayControls(view, send) {
  const away = view.away || { level: "normal", wait: 60 };
  const level = levelChooser("away-level", away.level, t("ui.away_level"), (chosen) =>
    send("set_away", { level: chosen, wait: away.wait }),
  );
  const wait = el("input", { id: "away-wait", type: "number", inputmode: "numeric", min: "10", max: "3600" });
  wait.value = String(away.wait);
  wait.addEventListener("change", () => {
    const seconds = Number.parseInt(wait.value, 10);
    if (Number.isInteger(seconds)) send("set_away", { level: away.level, wait: seconds });
  });
  return el("div", { class: "options away" }, [
    el("div", { class: "option" }, [el("label", { for: "away-level", text: t("ui.away_level") }), level]),
    el("div", { class: "option" }, [el("label", { for: "away-wait", text: t("ui.away_wait") }), wait]),
  ]);
}

function button(text, op, send, { primary = false, params = undefined, disabled = false } = {}) {
  const element = el("button", { type: "button", class: primary ? "primary" : "", text });
  element.dataset.op = op;
  element.disabled = disabled;
  element.addEventListener("click", () => send(op, params));
  return element;
}

/** The controls for `view` into `container`; `send(op, params)` publishes a host intent. */
export function renderHostControls(container, view, send, { minSeats = MIN_PLAYERS[view.game] ?? 2 } = {}) {
  const settingsOpen = view.status === "lobby" || view.status === "finished";
  const parts = [];

  const games = el("div", { class: "games", role: "group", "aria-label": t("ui.game") });
  for (const game of GAMES) {
    const choice = el("button", { type: "button", class: "game-choice", text: t(`game.${game}`) });
    choice.setAttribute("aria-pressed", String(view.game === game));
    choice.disabled = !settingsOpen;
    choice.addEventListener("click", () => view.game !== game && send("set_game", { game }));
    games.append(choice);
  }
  parts.push(el("h3", { text: t("ui.game") }), games);

  const specs = view.option_specs || [];
  if (specs.length) {
    const options = el("div", { class: "options" });
    for (const spec of specs) {
      options.append(optionField(spec, view.options?.[spec.name], send, settingsOpen));
    }
    parts.push(el("h3", { text: t("ui.options") }), options);
  }

  parts.push(el("h3", { text: t("ui.players_count", { count: view.players.length }) }));
  const players = el("div", { class: "player-list", role: "list" });
  for (const player of view.players) players.append(playerRow(player, view, send));
  if (!view.players.length) players.append(el("p", { class: "muted", text: t("ui.no_players") }));
  parts.push(players, awayControls(view, send));

  const table = el("div", { class: "host-buttons" });
  if (view.status === "lobby") {
    table.append(button(t("ui.add_bot"), "add_bot", send));
    // The tables service seats computer players up to the game's minimum on start, so a
    // lone player can start too (rules.md: computer players fill empty seats).
    table.append(button(t("ui.start"), "start", send, { primary: true, disabled: !view.players.length }));
    if (view.players.length && view.players.length < minSeats) {
      table.append(el("p", { class: "muted start-fills", text: t("ui.start_fills") }));
    }
  }
  if (view.status === "round_over") table.append(button(t("ui.next_round"), "next_round", send, { primary: true }));
  if (view.status === "finished") table.append(button(t("ui.rematch"), "rematch", send, { primary: true }));
  table.append(button(t(view.locked ? "ui.unlock" : "ui.lock"), view.locked ? "unlock" : "lock", send));
  if (view.status === "playing") {
    table.append(button(t(view.paused ? "ui.resume" : "ui.pause"), view.paused ? "resume" : "pause", send));
  }
  if (view.status === "playing" || view.status === "round_over") {
    table.append(button(t("ui.end_session"), "end_session", send));
  }
  // The buttons first: Start is in view at once, above the whole rules form.
  container.replaceChildren(table, ...parts);
}

/** A key that changes only when what the host controls show changes (keeps focus). */
export function hostControlsKey(view) {
  return JSON.stringify([
    view.status, view.game, view.options, view.option_specs, view.players, view.locked, view.paused,
    view.away,
  ]);
}
