// Replay of a match: GET /api/matches/{id} and /events, stepped through event by event. A
// finished match's log holds every private part, so the replay shows every hand as it was.
import { h, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";
import { api, ApiError } from "./api.js";
import { errorText } from "./errors.js";
import { TableModel } from "./model.js";
import { describe } from "./describe.js";
import { seatTile, centerArea } from "./table-seats.js";
import { resultsPanel } from "./table-results.js";
import { cardFace, sortHand } from "./cards.js";
import { teamBadge, teamClass, teamMark } from "./colors.js";

/** The log's events in order: [{seq, event (public part), private: {seat: part}}]. */
export function flattenLog(data) {
  const out = [];
  for (const line of data?.log || []) {
    for (const event of line.events || []) {
      const publicPart = event.public ? { kind: event.kind, ...event.public } : { ...event };
      out.push({ seq: event.seq ?? line.seq, event: publicPart, private: event.private || {} });
    }
  }
  return out;
}

function initialState(match) {
  return {
    phase: "lobby", round: 0, dealer: 0, turn: null, direction: 1, top: null, color: null,
    draw_pile: 0, discard_pile: 0, pending: null, catchable: [], last_round: null, result: null,
    rules: match.rules || {}, host: null, you: null,
    seats: (match.players || []).map((p, seat) => ({ seat, name: p.name, bot: p.bot, connected: true, cards: 0, uno: false,
      score: 0, team: teamOf(match, seat), hand: null, eliminated: false })),
  };
}

/** The table after the first `step` events, with every hand tracked from the private parts. */
export function replayTo(match, events, step) {
  const model = new TableModel();
  model.applyState({ seq: null, state: initialState(match) });
  const hands = model.state.seats.map(() => []);
  for (const item of events.slice(0, step)) {
    const e = item.event;
    model.applyEvent({ event: e });
    const priv = item.private || {};
    for (const [seat, part] of Object.entries(priv)) {
      // A challenger is shown the offender's hand: that is not the challenger's own.
      if (Array.isArray(part.hand) && e.kind !== "challenged") hands[seat] = [...part.hand];
      if (e.kind === "drew" && Array.isArray(part.cards)) hands[seat].push(...part.cards);
      if (e.kind === "exchanged" && part.gave) {
        removeCards(hands[seat], [part.gave]);
        hands[seat].push(part.received);
      }
    }
    if (e.kind === "played") removeCards(hands[e.seat], [e.card, ...(e.more || [])]);
    if (e.kind === "discarded") removeCards(hands[e.seat], e.cards);
    if (e.kind === "challenged" && e.guilty && model.state.rules?.challenge === "return") hands[e.offender].push("W+4");
  }
  model.state.turn ??= 0;
  return { model, hands };
}

/** Who played, who won, and every round's points with the running totals. */
function matchSummary(match) {
  const players = match.players || [];
  const rounds = match.rounds || [];
  const winners = match.winner_names?.length ? match.winner_names.join(", ") : null;
  return h("section.card-panel.match-summary", { "aria-labelledby": "summary-title" },
    h("h2#summary-title", {}, t("replay.summary")),
    h("p", {}, winners ? t("match.winner", { names: winners })
      : t(`replay.status.${match.status}`) || match.status),
    h("div.table-scroll", {}, h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("col.player")),
        rounds.map((r) => h("th.num", { scope: "col" }, t("table.round", { n: r.round }))),
        h("th.num", { scope: "col" }, t("round.total")))),
      h("tbody", {}, players.map((p, seat) => h("tr", { class: (match.winners || []).includes(seat) ? "winner" : "" },
        h("th", { scope: "row" }, p.player ? h("a", { href: `#/player/${p.player}` }, p.name) : p.name,
          teamOf(match, seat) !== null ? [" ", teamBadge(teamOf(match, seat))] : null),
        rounds.map((r) => h("td.num", {}, String(r.points?.[seat] ?? 0))),
        h("td.num.total", {}, String(match.totals?.[seat] ?? 0))))))),
    Array.isArray(match.teams) ? h("ul.team-scores", { "aria-label": t("team.scores") }, match.teams.map((members, team) =>
      h(`li.team-score.${teamClass(team)}`, {},
        h("span.team-label", {}, teamMark(team), t("team.name", { n: team + 1 })),
        h("span.team-members", {}, members.map((seat) => players[seat]?.name ?? seat + 1).join(" & ")),
        h("span.team-total", {}, t("team.points", { n: match.team_scores?.[team] ?? 0 }))))) : null);
}

/** H-TEAMS: the team of a seat in a match's view, or null. */
function teamOf(match, seat) {
  if (!Array.isArray(match.teams)) return null;
  const team = match.teams.findIndex((members) => members.includes(seat));
  return team >= 0 ? team : null;
}

function removeCards(hand, cards) {
  for (const card of cards || []) {
    const at = hand.indexOf(card);
    if (at >= 0) hand.splice(at, 1);
  }
}

export function mountReplay(root, id) {
  root.replaceChildren(h("p.card-panel", {}, t("loading")));
  let timer = null;
  Promise.all([api.match(id), api.matchEvents(id)]).then(([match, log]) => {
    const events = flattenLog(log);
    let step = 0;
    const board = h("div.replay-board");
    const counter = h("p.replay-step");
    const said = h("p.replay-said", { "aria-live": "polite" });
    const playButton = h("button.secondary", { key: "replay-play" });
    const go = (n) => {
      step = Math.max(0, Math.min(events.length, n));
      draw();
    };
    const draw = () => {
      const { model, hands } = replayTo(match, events, step);
      const s = model.state;
      const noActions = new Proxy({}, { get: () => () => {} });
      counter.textContent = t("replay.step", { n: step, total: events.length });
      said.textContent = step ? describe(events[step - 1].event, s) || "" : "";
      playButton.textContent = timer ? t("replay.pause") : t("replay.play");
      const labels = (s.rules?.custom_cards || []).map((c) => c.label);
      replaceChildren(board,
        s.phase === "lobby" ? null : h("div.board", {},
          h("ul.seats", {}, s.seats.map((_, seat) => seatTile(model, seat, noActions))),
          centerArea(model, noActions)),
        s.phase === "playing" ? h("div.replay-hands", {}, s.seats.map((seat, i) => h("div.replay-hand", {},
          h("h3", {}, seat.name || String(i + 1)),
          h("div.mini-hand", {}, sortHand(hands[i]).map((c) => cardFace(c, { size: "tiny", customLabels: labels })))))) : null,
        s.last_round && s.phase !== "playing" ? resultsPanel(model, noActions) : null);
    };
    const togglePlay = () => {
      if (timer) {
        clearInterval(timer);
        timer = null;
      } else {
        timer = setInterval(() => (step >= events.length ? togglePlay() : go(step + 1)), 700);
      }
      draw();
    };
    playButton.addEventListener("click", togglePlay);
    root.replaceChildren(h("div.page.replay", {},
      h("h1", {}, t("replay.title", { id })),
      matchSummary(match),
      events.length ? h("div.replay-controls", { role: "group", "aria-label": t("replay.title", { id }) },
        h("button.secondary", { onclick: () => go(0) }, t("replay.first")),
        h("button.secondary", { onclick: () => go(step - 1) }, t("replay.prev")),
        playButton,
        h("button.primary", { onclick: () => go(step + 1) }, t("replay.next")),
        h("button.secondary", { onclick: () => go(events.length) }, t("replay.last")),
        counter) : h("p.muted", {}, t("replay.empty")),
      said, board));
    draw();
  }).catch((error) => {
    root.replaceChildren(h("p.card-panel.form-error", { role: "alert" },
      error instanceof ApiError ? errorText(error.code, error.message) : t("error.unknown")));
  });
  return () => clearInterval(timer);
}
