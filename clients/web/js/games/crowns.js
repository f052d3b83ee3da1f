// Five Crowns on screen: the stock, the discard pile, the round and its wild rank;
// at the end of a round, each hand as the engine arranged it (melds and what is left).

import { cardBack, cardElement, cardText, emptySpot } from "../cards.js";
import { el } from "../dom.js";
import { t } from "../i18n.js";
import { roundsTable } from "../scores.js";

export const SHOWN_OPTIONS = null; // every option is worth showing
const FACES = { 11: "J", 12: "Q", 13: "K" };

/** The wild rank as cards write it: 3 … 10, J, Q, K. */
export function wildText(rank) {
  return FACES[rank] || String(rank);
}

export function sortRules(state) {
  return { wild: state.wild_rank ? wildText(state.wild_rank) : null };
}

export function roundText(state) {
  return t("ui.round_of", { round: state.round, rounds: 11 });
}

export function phaseText(state) {
  const phase = t(`phase.${state.phase}`);
  return state.last_turn ? `${phase} · ${t("phase.last_turn")}` : phase;
}

/** What the TV lists for one seat: cards in hand (or "out" once laid down) and points. */
export function seatStats(state, seat) {
  const count = state.hand_counts[seat];
  if (count === undefined) return [{ text: t("ui.next_game") }]; // seated for the next game
  const cards = state.went_out === seat ? t("ui.went_out") : t("ui.n_cards", { count });
  return [{ text: cards }, { text: t("ui.n_points", { count: state.scores[seat] }) }];
}

function meldRow(melds, leftover, wild) {
  const groups = (melds || []).map((meld) =>
    el("div", { class: `meld ${meld.kind}` }, meld.cards.map((code) => cardElement(code, { wild }))),
  );
  if (leftover && leftover.length) {
    groups.push(el("div", { class: "meld leftover" }, leftover.map((code) => cardElement(code, { wild }))));
  }
  return el("div", { class: "meld-row" }, groups);
}

/** Stock and discard pile; on the phone both are buttons (draw, take, discard). */
export function renderBoard(container, state, options = {}) {
  const wild = sortRules(state).wild;
  const stock = el(options.onStock ? "button" : "div", {
    class: "stock-cell",
    "data-pile": "stock",
    type: options.onStock ? "button" : null,
    "aria-label": t("ui.stock_count", { count: state.stock_count }),
  });
  stock.append(state.stock_count ? cardBack({ count: state.stock_count }) : emptySpot("∅"));
  if (options.onStock) stock.addEventListener("click", options.onStock);

  const top = state.discard_top;
  const discard = el(options.onDiscard ? "button" : "div", {
    class: "discard-cell",
    "data-pile": "discard",
    type: options.onDiscard ? "button" : null,
    "aria-label": top ? t("ui.discard_top", { card: cardText(top) }) : t("ui.discard_empty"),
  });
  const face = top ? cardElement(top, { wild }) : emptySpot("");
  const before = options.previous;
  if (top && before && (before.discard_top !== top || before.discard_count !== state.discard_count)) {
    face.classList.add("arrive");
  }
  discard.append(face);
  if (options.discardTarget) discard.classList.add("target");
  if (options.onDiscard) discard.addEventListener("click", options.onDiscard);

  const info = el("div", { class: "round-info" }, [
    el("div", { class: "wild-rank", text: t("ui.wild_is", { rank: t(`rank_plural.${wild}`) }) }),
  ]);
  if (state.last_turn && state.last_turns_left) {
    info.append(el("div", { class: "last-turns", text: t("ui.last_turns_left", { count: state.last_turns_left }) }));
  }
  if (options.hint && typeof options.hint.penalty === "number") {
    info.append(el("div", { class: "hint", text: t("ui.hint_penalty", { penalty: options.hint.penalty }) }));
  }
  const parts = [el("div", { class: "crowns-board" }, [stock, discard, info])];
  if (state.laid_down && state.went_out !== null && options.names) {
    parts.push(
      el("div", { class: "laid-down" }, [
        el("p", { text: t("ui.laid_down", { name: options.names[state.went_out] }) }),
        meldRow(state.laid_down, [], wild),
      ]),
    );
  }
  container.replaceChildren(...parts);
}

/** End of a round or the game: the score sheet of every round, and each arranged hand. */
export function scoreSheet(state, names) {
  const winners = new Set(state.outcome ? state.outcome.winners : []);
  const parts = [roundsTable(state.score_sheet || [], names, state.scores, winners, "crowns-scores")];
  const last = state.last_round;
  if (last) {
    const wild = wildText(last.wild_rank);
    parts.push(el("h3", { class: "arrangement-title", text: t("result.crowns") }));
    for (const result of last.results) {
      parts.push(
        el("div", { class: "arranged-hand" }, [
          el("span", { class: "arranged-name", text: `${names[result.seat]} · ${result.penalty}` }),
          meldRow(result.melds, result.leftover, wild),
        ]),
      );
    }
  }
  return el("div", { class: "score-sheet" }, parts);
}
