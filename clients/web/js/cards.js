// Cards as the engine writes them ("7H", "10S", "QT" = queen of stars, "JK" = joker),
// drawn as elements that look like cards: corner index, suit symbol, suit colour.

import { t } from "./i18n.js";

export const SUIT_SYMBOL = { H: "♥", D: "♦", C: "♣", S: "♠", T: "★", J: "🃏" };
const RANK_VALUE = { A: 1, J: 11, Q: 12, K: 13 };
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3, T: 4, J: 5 };

/** {rank: "7", suit: "H", value: 7, joker: false} of a card code. */
export function parseCard(code) {
  if (code === "JK") return { rank: "JK", suit: "J", value: 0, joker: true };
  const rank = code.slice(0, -1);
  const suit = code.slice(-1);
  return { rank, suit, value: RANK_VALUE[rank] || Number(rank), joker: false };
}

/** Short text of a card for sentences: "7♥", "10♠", "🃏". */
export function cardText(code) {
  const card = parseCard(code);
  return card.joker ? t("card.joker") : `${card.rank}${SUIT_SYMBOL[card.suit]}`;
}

/** Full spoken name of a card: "seven of hearts". */
export function cardName(code) {
  const card = parseCard(code);
  if (card.joker) return t("card.joker");
  return t("card.name", { rank: t(`rank.${card.rank}`), suit: t(`suit.${card.suit}`) });
}

/**
 * The hand in a readable order: by suit, then rank. `wild` (Five Crowns' wild rank,
 * e.g. "5") and jokers go to the right end, where a player looks for them.
 */
export function sortHand(codes, { wild = null, aceHigh = false } = {}) {
  const key = (code) => {
    const card = parseCard(code);
    const isWild = card.joker || card.rank === wild;
    const value = aceHigh && card.value === 1 ? 14 : card.value;
    return [isWild ? 1 : 0, isWild ? (card.joker ? 1 : 0) : SUIT_ORDER[card.suit], value];
  };
  return [...codes].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    return ka[0] - kb[0] || ka[1] - kb[1] || ka[2] - kb[2];
  });
}

function span(className, text) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
}

/** A face-up card element. `tag` is "button" for cards a player can pick. */
export function cardElement(code, { tag = "div", wild = null } = {}) {
  const card = parseCard(code);
  const element = document.createElement(tag);
  element.className = `card suit-${card.suit}`;
  if (card.joker || card.rank === wild) element.classList.add("wild");
  element.dataset.card = code;
  if (tag !== "button") element.setAttribute("role", "img");
  element.setAttribute("aria-label", cardName(code));
  if (card.joker) {
    element.append(span("idx", "★"), span("pip joker-face", t("card.joker_short")));
    return element;
  }
  const index = span("idx", "");
  index.append(span("rank", card.rank), span("sym", SUIT_SYMBOL[card.suit]));
  const bottom = index.cloneNode(true);
  bottom.className = "idx idx-bottom";
  const face = ["J", "Q", "K"].includes(card.rank);
  const pip = span("pip", face ? "" : SUIT_SYMBOL[card.suit]);
  if (face) {
    // A court card: its letter and suit framed, as a picture would be.
    element.classList.add("face");
    pip.append(span("face-rank", card.rank), span("face-suit", SUIT_SYMBOL[card.suit]));
  }
  element.append(index, pip, bottom);
  return element;
}

/** A face-down card (the stock), with an optional count badge. */
export function cardBack({ count = null, tag = "div" } = {}) {
  const element = document.createElement(tag);
  element.className = "card back";
  if (count !== null) element.append(span("count", String(count)));
  return element;
}

/** An empty pile place. */
export function emptySpot(label) {
  const element = document.createElement("div");
  element.className = "card spot";
  element.append(span("spot-label", label));
  return element;
}
