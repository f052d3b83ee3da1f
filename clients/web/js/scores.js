// The session score sheet both games show at the end of a round: a row per round, a
// column per player, and the totals underneath.

import { el } from "./dom.js";
import { t } from "./i18n.js";

/** `sheet`: [{round, penalties: [per seat]}]; `scores`: the totals; `winners`: a Set of seats. */
export function roundsTable(sheet, names, scores, winners, extraClass = "") {
  const seats = names.map((name, seat) => ({ name, seat }));
  const head = el("tr", {}, [
    el("th", { text: t("ui.round") }),
    ...seats.map(({ name, seat }) => el("th", { text: `${winners.has(seat) ? "★ " : ""}${name}` })),
  ]);
  const rows = sheet.map((row) =>
    el("tr", {}, [
      el("td", { text: t("ui.round_n", { round: row.round }) }),
      ...seats.map(({ seat }) => el("td", { text: String(row.penalties[seat]) })),
    ]),
  );
  const totals = el("tr", { class: "totals" }, [
    el("td", { text: t("ui.total") }),
    ...seats.map(({ seat }) =>
      el("td", { class: winners.has(seat) ? "winner" : "", text: String(scores[seat]) }),
    ),
  ]);
  return el("table", { class: `scores ${extraClass}`.trim() }, [
    el("thead", {}, [head]),
    el("tbody", {}, [...rows, totals]),
  ]);
}
