// Between rounds and after the match: every hand with its points, the teams' totals (H-TEAMS),
// and the podium with places and totals; the host deals on or starts a rematch.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { cardFace, sortHand } from "./cards.js";
import { seatName } from "./describe.js";
import { teamBadge, teamClass, teamMark } from "./colors.js";

function teamNames(state, members, mySeat) {
  return members.map((seat) => seatName(state, seat, mySeat)).join(" & ");
}

/** H-TEAMS: each team's members and total. */
function teamScores(state, teams, scores, winning, mySeat) {
  return h("ul.team-scores", { "aria-label": t("team.scores"), "data-testid": "team-scores" },
    teams.map((members, team) => h(`li.team-score.${teamClass(team)}`, { class: (winning || []).includes(team) ? "winner" : "" },
      h("span.team-label", {}, teamMark(team), t("team.name", { n: team + 1 })),
      h("span.team-members", {}, teamNames(state, members, mySeat)),
      h("span.team-total", {}, t("team.points", { n: scores?.[team] ?? 0 })))));
}

/** The places of the match, best first: seats, or teams under H-TEAMS (partners share one). */
export function standings(state, result, mySeat = null) {
  const places = result.places || [];
  const scores = result.scores || [];
  if (Array.isArray(result.teams)) {
    return result.teams.map((members, team) => ({
      key: `team-${team}`, team, place: places[members[0]] ?? team + 1,
      label: t("team.name", { n: team + 1 }), detail: teamNames(state, members, mySeat),
      total: result.team_scores?.[team] ?? scores[members[0]] ?? 0,
    })).sort((a, b) => a.place - b.place);
  }
  return state.seats.map((_, seat) => ({
    key: `seat-${seat}`, seat, place: places[seat] ?? seat + 1, label: seatName(state, seat, mySeat),
    detail: "", total: scores[seat] ?? 0,
  })).sort((a, b) => a.place - b.place || a.seat - b.seat);
}

/** After the match: the first three on a podium, everyone else below, with places and totals. */
export function podium(state, result, mySeat = null) {
  const rows = standings(state, result, mySeat);
  const step = (row) => h(`li.podium-step.place-${Math.min(row.place, 4)}`, { class: teamClass(row.team) },
    h("span.podium-name", {}, teamMark(row.team), row.label),
    row.detail ? h("span.podium-detail", {}, row.detail) : null,
    h("span.podium-total", {}, t("podium.total", { n: row.total })),
    h("span.podium-block", {}, h("span.podium-place", {}, t("podium.place", { n: row.place }))));
  return h("section.podium-area", { "aria-label": t("podium.title"), "data-testid": "podium" },
    h("ol.podium", {}, rows.slice(0, 3).map(step)),
    rows.length > 3 ? h("ol.podium-rest", {}, rows.slice(3).map((row) => h("li", {},
      h("span.podium-place", {}, t("podium.place", { n: row.place })), " ", row.label, " · ",
      t("podium.total", { n: row.total })))) : null);
}

function winnerLine(s, last, result, mySeat) {
  if (result) {
    if (Array.isArray(result.teams)) {
      const teams = result.teams.map((_, team) => team).filter((team) => result.teams[team].some((seat) => (result.winners || []).includes(seat)));
      return t("match.team_winner", { teams: teams.map((team) => t("team.name", { n: team + 1 })).join(", ") });
    }
    return t("match.winner", { names: (result.winners || []).map((w) => seatName(s, w, mySeat)).join(", ") });
  }
  if (Array.isArray(last.winning_teams) && last.teams) {
    return t("round.team_winner", { team: last.winning_teams.map((team) => t("team.name", { n: team + 1 })).join(", "),
      name: seatName(s, last.winner, mySeat) });
  }
  if (Array.isArray(last.winners) && last.winners.length > 1) {
    return t("round.shared", { names: last.winners.map((w) => seatName(s, w, mySeat)).join(", ") });
  }
  return t("round.winner", { name: seatName(s, last.winner, mySeat) });
}

function handsTable(s, last, mySeat) {
  const labels = (s.rules?.custom_cards || []).map((c) => c.label);
  const rows = s.seats.map((info, seat) => h("tr", {
    class: [(last.winners || [last.winner]).includes(seat) ? "winner" : "", teamClass(info.team)]
      .filter(Boolean).join(" "),
  },
  h("th.result-name", { scope: "row" }, seatName(s, seat, mySeat), " ", teamBadge(info.team),
    last.eliminated === seat ? h("span.badge.eliminated", {}, t("seat.eliminated")) : null),
  h("td.result-hand", { "data-label": t("round.hand") },
    (last.hands?.[seat] || []).length
      ? h("div.mini-hand", {}, sortHand(last.hands[seat]).map((c) => cardFace(c, { size: "tiny", customLabels: labels })))
      : "—"),
  h("td.num", { "data-label": t("round.points") }, String(last.hand_points?.[seat] ?? 0)),
  h("td.num", { "data-label": t("round.round_points") }, String(last.points?.[seat] ?? 0)),
  h("td.num.total", { "data-label": t("round.total") }, String(last.scores?.[seat] ?? info.score ?? 0))));
  return h("div.table-scroll", {},
    h("table.results-table", {},
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("col.player")), h("th", { scope: "col" }, t("round.hand")),
        h("th.num", { scope: "col" }, t("round.points")), h("th.num", { scope: "col" }, t("round.round_points")),
        h("th.num", { scope: "col" }, t("round.total")))),
      h("tbody", {}, rows)));
}

export function resultsPanel(model, actions) {
  const s = model.state;
  const last = s.last_round;
  if (!last) return null;
  const me = model.mySeat;
  const isHost = me !== null && s.host === me;
  const result = s.result;
  const tournament = s.tournament?.code ?? null; // a tournament's table: nobody hosts it
  const notes = [];
  if (last.clock) notes.push(t("round.clock_over"));
  if (typeof last.eliminated === "number") notes.push(t("round.eliminated", { name: seatName(s, last.eliminated, me) }));
  return h("section.results", { "aria-labelledby": "results-title" },
    h("h2#results-title", {}, result ? t("match.over") : t("round.over", { n: last.round ?? s.round })),
    h("p.results-winner", {}, winnerLine(s, last, result, null)),
    notes.length ? h("p.results-notes", {}, notes.join(" ")) : null,
    result ? podium(s, result, me) : null,
    Array.isArray(last.teams) ? teamScores(s, last.teams, last.team_scores, last.winning_teams, me) : null,
    handsTable(s, last, me),
    !result && isHost && !tournament
      ? h("button.primary", { key: "next-round", onclick: () => actions.nextRound() }, t("round.next"))
      : null,
    !result && (!isHost || tournament) ? h("p.muted", {}, t(tournament ? "tour.deals_itself" : "round.waiting_next")) : null,
    result ? h("div.form-buttons", {},
      tournament ? h("a.button.primary", { href: `#/t/${tournament}` }, t("tour.back", { code: tournament })) : null,
      isHost && !tournament ? h("button.primary", { key: "rematch", onclick: () => actions.rematch() }, t("match.rematch")) : null,
      !isHost && me !== null && !tournament ? h("p.muted", {}, t("match.waiting_rematch")) : null,
      s.match ? h("a.button.secondary", { href: `#/match/${s.match}` }, t("match.details")) : null,
      h("a.button.secondary", { href: "#/" }, t("nav.home"))) : null);
}
