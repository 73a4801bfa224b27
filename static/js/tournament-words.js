// A tournament's connection state and its events in words: what the live region says when a
// round starts, a table finishes or the tournament ends.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { closeText } from "./errors.js";
import { nameOf } from "./tournament-parts.js";

export function tournamentStatus(status, detail, code) {
  const text = status === "closed"
    ? detail?.code === 4404 ? t("tour.not_found") : closeText(detail?.code, code, detail?.reason)
    : status === "open" ? t("table.connected")
      : status === "reconnecting" ? t("table.reconnecting") : t("table.connecting");
  return h("span.connection", { class: status, "data-testid": "connection" }, h("span.dot", { "aria-hidden": "true" }), text);
}

/** What a screen reader hears after `event` (the view is the one after it), or null. */
export function tournamentNews(event, view) {
  const me = view?.you?.participant ?? null;
  switch (event.kind) {
    case "round_started": {
      const mine = (view?.tables || []).find((table) => (table.participants || []).includes(me));
      return mine ? t("tour.news.your_table", { n: event.round, table: mine.number }) : t("tour.news.round_started", { n: event.round });
    }
    case "table_finished":
      return t("tour.news.table_finished", { table: event.number });
    case "tournament_over": {
      const first = (event.podium || [])[0];
      return first === undefined ? t("tour.phase.over") : t("tour.news.over", { name: nameOf(view, first) });
    }
    default:
      return null;
  }
}
