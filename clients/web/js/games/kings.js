// Kings in the Corner on screen: the cross of eight piles around the stock.
// The same drawing serves the TV (read only) and the phone (tap or drop on a pile).

import { cardBack, cardElement, cardText, emptySpot } from "../cards.js";
import { el } from "../dom.js";
import { sentence, t } from "../i18n.js";
import { roundsTable } from "../scores.js";

// Where each pile sits in the 3 × 3 cross, reading order.
const LAYOUT = ["NW", "N", "NE", "W", "stock", "E", "SW", "S", "SE"];
export const PILES = ["N", "E", "S", "W", "NE", "SE", "SW", "NW"];

function pileLabel(name, cards) {
  const where = t(`pile.${name}`);
  if (!cards.length) return sentence(t("ui.pile_empty", { pile: where }));
  return sentence(t("ui.pile_cards", { pile: where, cards: cards.map(cardText).join(" ") }));
}

function drawPile(name, cards, before, marks) {
  const pile = el("div", { class: "pile" });
  pile.style.setProperty("--gaps", String(Math.max(1, cards.length - 1)));
  pile.style.setProperty("--n1", String(Math.max(0, cards.length - 1)));
  if (!cards.length) {
    pile.append(emptySpot(name.length === 2 ? "K" : ""));
  }
  cards.forEach((code, index) => {
    const card = cardElement(code);
    card.style.setProperty("--i", String(index));
    // A card that was not on this pile before has just arrived: animate it.
    if (before && !before.includes(code)) card.classList.add("arrive");
    pile.append(card);
  });
  const cell = el(marks.interactive ? "button" : "div", {
    class: `pile-cell pos-${name}${name.length === 2 ? " corner" : ""}`,
    "data-pile": name,
    "aria-label": pileLabel(name, cards),
    type: marks.interactive ? "button" : null,
  });
  if (marks.targets.has(name)) cell.classList.add("target");
  if (marks.source === name) cell.classList.add("source");
  // The name every announcement and typed command uses ("N", "NE"…, in the screen's language).
  cell.append(pile, el("span", { class: "pile-name", "aria-hidden": "true", text: t(`pile_short.${name}`) }));
  if (marks.interactive) cell.addEventListener("click", () => marks.onPile(name));
  if (marks.dragPile && cards.length) marks.dragPile(cell, name);
  return cell;
}

/**
 * Draw the cross into `container`. `options.previous` (the state shown before) makes
 * newly arrived cards animate; `targets` (a Set of pile names) and `source` mark where
 * the selected card or pile may go; `onPile(name)` / `onStock()` make it interactive.
 */
export function renderBoard(container, state, options = {}) {
  const marks = {
    interactive: Boolean(options.onPile),
    targets: options.targets || new Set(),
    source: options.source || null,
    onPile: options.onPile,
    dragPile: options.dragPile,
  };
  const previousPiles = options.previous?.piles;
  const cross = el("div", { class: "cross", role: "group", "aria-label": t("ui.board") });
  for (const place of LAYOUT) {
    if (place === "stock") {
      const stock = el(options.onStock ? "button" : "div", {
        class: "stock-cell",
        "data-pile": "stock",
        type: options.onStock ? "button" : null,
        "aria-label": t("ui.stock_count", { count: state.stock_count }),
      });
      stock.append(state.stock_count ? cardBack({ count: state.stock_count }) : emptySpot("∅"));
      if (options.stockTarget) stock.classList.add("target");
      if (options.onStock) stock.addEventListener("click", options.onStock);
      cross.append(stock);
      continue;
    }
    const cards = state.piles[place] || [];
    cross.append(drawPile(place, cards, previousPiles ? previousPiles[place] || [] : null, marks));
  }
  container.replaceChildren(cross);
}

/** The phase of the turn in words ("draw", "play", "round over"). */
export function phaseText(state) {
  if (state.phase === "play" && state.options?.draw === "end") return t("phase.play_then_draw");
  return t(`phase.${state.phase}`);
}

/** What the TV lists for one seat besides its name; points only when a session counts them. */
export function seatStats(state, seat) {
  const count = state.hand_counts[seat];
  if (count === undefined) return [{ text: t("ui.next_game") }]; // seated for the next game
  const stats = [{ text: t("ui.n_cards", { count }) }];
  if (state.options?.session) stats.push({ text: t("ui.n_points", { count: state.scores[seat] }) });
  return stats;
}

/** The options worth showing on the TV while playing, as short lines. */
export const SHOWN_OPTIONS = ["deal", "draw", "kings_to_corners", "king_pile_to_corner",
  "mandatory_kings", "royal_kings", "session", "scoring", "target"];

/** SHOWN_OPTIONS for the rules in force: the session's target only when a session is played. */
export function shownOptions(options) {
  return SHOWN_OPTIONS.filter((name) => name !== "target" || options?.session);
}

export function sortRules() {
  return { wild: null };
}

/** End of round or game: who won, the penalty of each seat and the totals. */
export function scoreSheet(state, names) {
  const last = state.last_round;
  const winners = new Set(state.outcome ? state.outcome.winners : last ? last.winners : []);
  const rows = names.map((name, seat) =>
    el("tr", { class: winners.has(seat) ? "winner" : "" }, [
      el("td", { text: `${winners.has(seat) ? "★ " : ""}${name}` }),
      el("td", { text: String(state.hand_counts[seat]) }),
      el("td", { text: last ? String(last.penalties[seat]) : "–" }),
      el("td", { text: String(state.scores[seat]) }),
    ]),
  );
  const head = el("tr", {}, [
    el("th", { text: t("ui.player") }),
    el("th", { text: t("ui.cards_left") }),
    el("th", { text: t("ui.round_points") }),
    el("th", { text: t("ui.total") }),
  ]);
  const parts = [el("table", { class: "scores" }, [el("thead", {}, [head]), el("tbody", {}, rows)])];
  if (last) {
    parts.unshift(el("p", { class: "result-line", text: t(`result.${last.reason}`, { winners: last.winners }) }));
  }
  const sheet = state.score_sheet || [];
  if (sheet.length > 1) {
    // A session: every round so far, as the players would keep it on paper.
    parts.push(roundsTable(sheet, names, state.scores, winners, "session-scores"));
  }
  return el("div", { class: "score-sheet" }, parts);
}

export function roundText(state) {
  return t("ui.round_n", { round: state.round });
}
