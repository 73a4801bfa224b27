// What the phone page and the party screen of a tournament both show (RULES.md section 11): the
// round and phase in words, the standings, the current round's tables and the podium. Places
// and phases are always written out, never told by colour alone.
import { h } from "./dom.js";
import { t, lang } from "./i18n.js";

/** Tournament points may be halves (a tie splits the places' points). */
export function points(value) {
  return new Intl.NumberFormat(lang(), { maximumFractionDigits: 1 }).format(Number(value) || 0);
}

/** participant id -> name. */
export function names(view) {
  const map = new Map();
  for (const p of view?.participants || []) map.set(p.participant, p.name);
  for (const s of view?.standings || []) if (!map.has(s.participant)) map.set(s.participant, s.name);
  return map;
}

export function nameOf(view, id) {
  return names(view).get(id) ?? t("seat.name", { n: id });
}

/** "Round 2 of 3 is being played", "Waiting to start", "The final is being played", … A
 * knockout runs until its final, so its rounds are not counted out of a number. */
export function phaseText(view) {
  if (view.format === "knockout" && ["playing", "between"].includes(view.phase)) {
    return t(view.final ? `tour.phase_final.${view.phase}` : `tour.phase_ko.${view.phase}`, { n: view.round });
  }
  return t(`tour.phase.${view.phase}`, { n: view.round, m: view.rounds });
}

export function roundText(view) {
  if (view.format === "knockout") return view.final ? t("tour.final") : view.round > 0 ? t("tour.round", { n: view.round }) : t("tour.format_short.knockout");
  return view.round > 0 ? t("tour.round_of", { n: view.round, m: view.rounds }) : t("tour.rounds_count", { m: view.rounds });
}

/** The standings as a table; `me` (a participant id) is marked in words; `limit` rows at most. */
export function standingsTable(view, me, { limit = Infinity, compact = false, id = "standings-title" } = {}) {
  const rows = view.standings || [];
  if (!rows.length) return h("p.muted", { "data-testid": "standings-empty" }, t("tour.standings_empty"));
  const withdrawn = new Set((view.participants || []).filter((p) => p.withdrawn).map((p) => p.participant));
  const shown = rows.slice(0, limit);
  const col = (key, num = false, extra = false) => h(num ? "th.num" : "th", { scope: "col", class: extra ? "col-extra" : "" }, t(`tour.col.${key}`));
  return h("div.table-scroll", {},
    h("table.standings", { "aria-labelledby": id, "data-testid": "standings" },
      h("thead", {}, h("tr", {}, col("place", true), col("player"), col("points", true),
        compact ? null : col("buchholz", true, true), compact ? null : col("cards", true, true), col("played", true))),
      h("tbody", {}, shown.map((row) => h("tr", {
        "data-participant": row.participant, class: [row.participant === me ? "me" : "", row.place <= 3 ? `top place-${row.place}` : ""].join(" ").trim(),
      },
      h("td.num.place", {}, String(row.place)),
      h("th.player", { scope: "row" }, row.name,
        row.participant === me ? h("span.badge.you", {}, t("tour.you")) : null,
        withdrawn.has(row.participant) ? h("span.badge.withdrawn", {}, t("tour.withdrawn")) : null),
      h("td.num.points", {}, points(row.points)),
      compact ? null : h("td.num.col-extra", {}, points(row.buchholz)),
      compact ? null : h("td.num.col-extra", {}, String(row.card_points ?? 0)),
      h("td.num", {}, String(row.played ?? 0)))))),
    rows.length > shown.length ? h("p.muted.more-rows", {}, t("tour.more", { n: rows.length - shown.length })) : null);
}

/** Who won a finished table: the best of its points (seats are its people, then its bots). */
function winners(view, table) {
  const scores = table.points;
  if (!Array.isArray(scores) || !scores.length) return table.leader ? [nameOf(view, table.leader)] : [];
  const best = Math.max(...scores);
  const people = table.participants || [];
  return scores.map((score, i) => (score === best ? (i < people.length ? nameOf(view, people[i]) : t("tour.a_bot")) : null))
    .filter(Boolean);
}

/** Who leads a table now: from the server (`leader`), or from `live` seats (the party screen's). */
function leaderLine(view, table, live) {
  if (table.phase === "over") {
    const names = winners(view, table);
    return names.length ? t("tour.winner", { name: names.join(", ") }) : null;
  }
  if (live?.length) {
    const cards = (n) => (n === 1 ? t("seat.card") : t("seat.cards", { n }));
    const [first, second] = live; // a leader only when ahead: not at a fresh deal of 7 each
    const ahead = !second || first.score !== second.score || first.cards !== second.cards;
    return [ahead ? t("tour.leader", { name: first.name }) : t("tour.even"),
      h("span.tour-live", {}, live.map((seat) => `${seat.name}: ${cards(seat.cards)}`).join(" · "))];
  }
  return table.leader ? t("tour.leader", { name: nameOf(view, table.leader) }) : null;
}

/** One table of the current round: its number, phase, players, leader, and a link to watch. */
export function tableCard(view, table, me = null, live = null) {
  const who = (table.participants || []).map((id) => h("li", { class: id === me ? "me" : "" }, nameOf(view, id),
    id === me ? h("span.badge.you", {}, t("tour.you")) : null));
  const leader = leaderLine(view, table, live);
  return h(`li.tour-table.phase-${table.phase}`, { class: live?.length && table.phase !== "over" ? "live" : "",
    "data-table": table.number, "data-room": table.room },
    h("div.tour-table-head", {},
      h("h3", {}, t("tour.table", { n: table.number })),
      h(`span.tour-table-phase.badge.phase-${table.phase}`, {}, h("span.phase-mark", { "aria-hidden": "true" }, PHASE_MARK[table.phase] || ""),
        t(`tour.table_phase.${table.phase}`))),
    h("ul.tour-table-people", {}, who, table.bots ? h("li.muted", {}, t("tour.bots", { n: table.bots })) : null),
    leader ? h("p.tour-leader", { "data-testid": "leader" }, leader) : null,
    table.room ? h("a.button.secondary.watch-table", { href: `#/watch/${table.room}`, key: `watch-${table.number}` }, t("tour.watch", { n: table.number })) : null);
}

// A shape beside each table's phase word, for a glance from across the room (not a colour).
const PHASE_MARK = { seating: "○", playing: "▶", over: "✓" };

/** The round's tables; `live(room)` gives a playing table's seats now (the party screen). */
export function tablesList(view, me = null, live = () => null) {
  const tables = view.tables || [];
  if (!tables.length) return null;
  return h("ul.tour-tables", { class: tables.length > 4 ? "many" : "", "data-testid": "tables" }, tables.map((table) => tableCard(view, table, me, live(table.room))));
}

/** The podium: first, second and third with their place numbers and names, the rest below. */
export function tournamentPodium(view, panelClass = "") {
  const podium = view.podium || [];
  if (!podium.length) return null;
  const byId = new Map((view.standings || []).map((s) => [s.participant, s]));
  const step = (id, i) => h(`li.podium-step.place-${i + 1}`, { "data-participant": id },
    h("span.podium-name", {}, nameOf(view, id)),
    // A knockout's places are the final's, not its points: those would only puzzle.
    byId.has(id) && view.format !== "knockout" ? h("span.podium-total", {}, t("tour.points", { n: points(byId.get(id).points) })) : null,
    h("span.podium-block", {}, h("span.podium-place", {}, t("podium.place", { n: i + 1 }))));
  return h("section.podium-area.tour-podium", { class: panelClass, "aria-labelledby": "podium-title", "data-testid": "podium" },
    h("h2#podium-title", {}, t("tour.podium")),
    h("ol.podium", {}, podium.slice(0, 3).map(step)));
}

/** The view after an event (a state frame follows each change; this keeps the screen current). */
export function withEvent(view, event) {
  if (!view) return view;
  if (event.kind === "standings" && Array.isArray(event.standings)) return { ...view, standings: event.standings };
  if (event.kind === "tournament_over") return { ...view, phase: "over", podium: event.podium || [] };
  if (event.kind === "table_finished") {
    return { ...view, tables: (view.tables || []).map((table) => (table.number === event.number && event.round === view.round
      ? { ...table, phase: "over" } : table)) };
  }
  return view;
}
