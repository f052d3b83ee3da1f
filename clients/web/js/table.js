// What the TV and the phone both know about a table: names by seat, how to word
// coded events and errors, and which game module draws the board.

import { cardName, cardText } from "./cards.js";
import { describe, has, listOf, sentence, setParamFormatter, t } from "./i18n.js";
import * as kings from "./games/kings.js";
import * as crowns from "./games/crowns.js";

const GAME_MODULES = { "kings-corner": kings, "five-crowns": crowns };
const CARD_PARAMS = new Set(["card", "top", "bottom", "discard", "drawn", "taken"]);
const PILE_PARAMS = new Set(["pile", "from", "to"]);
const SEAT_PARAMS = new Set(["seat", "next_seat", "current_seat", "dealer", "first_seat"]);

const GAME_SUFFIX = { "five-crowns": "crowns" };
const FACE_RANKS = { 1: "A", 11: "J", 12: "Q", 13: "K" };

let names = [];
let speaking = false;
let game = null;

/** The game being played: some events are worded per game (their parameters differ). */
export function setGame(name) {
  game = name;
}

export function gameModule(game) {
  return GAME_MODULES[game] || kings;
}

/** Names by seat from the public view; a seat without a name is "seat n". */
export function setNames(players) {
  names = [];
  for (const player of players) names[player.seat] = player.name;
}

export function nameOf(seat) {
  if (seat === null || seat === undefined) return t("ui.the_table");
  return names[seat] ?? t("ui.seat_n", { number: seat + 1 });
}

export function allNames(count) {
  return Array.from({ length: count }, (_, seat) => nameOf(seat));
}

function looksLikeCard(value) {
  return typeof value === "string" && /^(?:[2-9]|10|[AJQK])[HDCST]$|^JK$/.test(value);
}

function list(values) {
  return values.join(", ");
}

function formatParam(name, value) {
  const card = speaking ? cardName : cardText;
  if (Array.isArray(value)) {
    if (value.every(looksLikeCard)) return list(value.map(card));
    if (name === "seats" || name === "winners") return listOf(value.map(nameOf));
    if (name === "piles") {
      return listOf(value.map((pile) => (has(`pile.${pile}`) ? t(`pile.${pile}`) : pile)), "disjunction");
    }
    return list(value.map(String));
  }
  if (CARD_PARAMS.has(name) && looksLikeCard(value)) return card(value);
  // A card named only in part by a player ("the king", "a heart", "a wild one")
  if (CARD_PARAMS.has(name) && value === "wild") return t("card.wild");
  if (CARD_PARAMS.has(name) && has(`rank.${value}`)) return t(`rank.${value}`);
  if (CARD_PARAMS.has(name) && has(`suit.${value}`)) return t(`suit.${value}`);
  if (PILE_PARAMS.has(name) && has(`pile.${value}`)) return t(`pile.${value}`);
  if (SEAT_PARAMS.has(name) && Number.isInteger(value)) return nameOf(value);
  if (name === "game" && has(`game.${value}`)) return t(`game.${value}`);
  if (name === "wild_rank" && Number.isInteger(value)) return t(`rank_plural.${FACE_RANKS[value] || value}`);
  if ((name === "wild" || name === "rank") && has(`rank.${value}`)) return t(`rank.${value}`);
  if ((name === "reason" || name === "method") && has(`reason.${value}`)) return t(`reason.${value}`);
  if (name === "option" && has(`option.${value}`)) return t(`option.${value}`);
  return value;
}

setParamFormatter(formatParam);

/** The catalogue key of an event: per source ("drew.discard") or game, else the code. */
function eventKey(event) {
  const source = event.params?.source;
  const suffix = GAME_SUFFIX[game];
  for (const key of [source && `event.${event.code}.${source}`, suffix && `event.${event.code}.${suffix}`]) {
    if (key && has(key)) return key;
  }
  return has(`event.${event.code}`) ? `event.${event.code}` : null;
}

/** One event as a sentence; `player` is the name of the event's seat. */
export function eventText(event, { spoken = false } = {}) {
  speaking = spoken;
  try {
    const params = { ...event.params, player: nameOf(event.seat) };
    const key = eventKey(event);
    return key ? sentence(t(key, params)) : describe("event", { code: event.code, params });
  } finally {
    speaking = false;
  }
}

/** A refusal (error code and parameters) as a sentence in the current language. */
export function errorText(error) {
  return describe("error", { code: error.code, params: { ...error.params } });
}

/** The assistant's answer to a question (`{answer, params}` of its reply's data). */
export function answerText(data) {
  return describe("answer", { code: data.answer, params: { ...data.params } });
}

/** A short line per rule option in force: "Deal: 7 cards". */
export function optionLines(view, shown) {
  return (view.option_specs || [])
    .filter((spec) => !shown || shown.includes(spec.name))
    .map((spec) => {
      const value = view.options?.[spec.name];
      const valueKey = `option.${spec.name}.${value}`;
      let text = String(value);
      if (has(valueKey)) text = t(valueKey);
      else if (typeof value === "boolean") text = t(value ? "ui.on" : "ui.off");
      return t("ui.option_line", { option: t(`option.${spec.name}`), value: text });
    });
}
