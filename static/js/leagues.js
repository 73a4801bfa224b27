// Leagues: every league on the server (GET /api/leagues, newest first, a page at a time), create
// one, open one, and its standings under its scoring (P-500 or P-200), with the same members
// ranked under the other system for comparison.
import { h, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";
import { api, knownLeagues, ApiError } from "./api.js";
import { errorText } from "./errors.js";

function problem(error) {
  return error instanceof ApiError ? errorText(error.code, error.message) : t("error.unknown");
}

export function mountLeagues(root) {
  const name = h("input#league-name", { type: "text", maxlength: 64, required: true });
  const scoring = h("select#league-scoring", {},
    ["winner_takes", "lowest_wins"].map((s) => h("option", { value: s }, t(`leagues.scoring.${s}`))));
  const target = h("input#league-target", { type: "number", min: 1, max: 100000, placeholder: "500" });
  scoring.addEventListener("change", () => (target.placeholder = scoring.value === "winner_takes" ? "500" : "200"));
  const message = h("p.form-error", { role: "alert" });
  const create = h("form.card-panel", {
    onsubmit: async (event) => {
      event.preventDefault();
      message.textContent = "";
      try {
        const body = { name: name.value.trim(), scoring: scoring.value };
        if (target.value) body.target = Number(target.value);
        const league = await api.createLeague(body);
        knownLeagues.add({ id: league.id, name: body.name });
        location.hash = `#/league/${league.id}`;
      } catch (error) {
        message.textContent = problem(error);
      }
    },
  },
  h("h2", {}, t("leagues.create")),
  h("div.field", {}, h("label", { for: "league-name" }, t("leagues.name")), name),
  h("div.field-row", {},
    h("div.field", {}, h("label", { for: "league-scoring" }, t("leagues.scoring")), scoring),
    h("div.field", {}, h("label", { for: "league-target" }, t("leagues.target")), target)),
  message,
  h("button.primary", { type: "submit" }, t("leagues.submit")));

  const idInput = h("input#league-id", { type: "text", inputmode: "numeric", required: true });
  const open = h("form.card-panel", { onsubmit: (e) => { e.preventDefault(); location.hash = `#/league/${idInput.value.trim()}`; } },
    h("h2", {}, t("leagues.open")),
    h("div.field", {}, h("label", { for: "league-id" }, t("leagues.id")), idInput),
    h("button.secondary", { type: "submit" }, t("leagues.go")));

  root.replaceChildren(h("div.page", {},
    h("h1", {}, t("leagues.title")),
    h("div.home-grid", {},
      h("div.home-col", {}, leagueDirectory()),
      h("div.home-col", {}, create, open))));
}

const PAGE = 20;

/** Every league on the server, newest first, with "Show more" while pages remain. */
function leagueDirectory() {
  const body = h("tbody");
  const status = h("p.muted", { role: "status" }, t("loading"));
  const more = h("button.secondary", { type: "button", hidden: true }, t("leagues.more"));
  let next = null;
  const row = (l) => h("tr", { "data-league": String(l.id) },
    h("th", { scope: "row" }, h("a", { href: `#/league/${l.id}` }, l.name)),
    h("td", {}, t(`leagues.scoring_short.${l.scoring}`)),
    h("td.num", {}, String(l.target)),
    h("td.num", {}, String(l.matches ?? 0)),
    h("td.num", {}, String(l.players ?? 0)));
  const table = h("div.table-scroll", { hidden: true }, h("table.leagues", {},
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("col.league")),
      h("th", { scope: "col" }, t("leagues.scoring")),
      h("th.num", { scope: "col" }, t("col.target")),
      h("th.num", { scope: "col" }, t("col.matches")),
      h("th.num", { scope: "col" }, t("col.players")))),
    body));
  const load = async () => {
    more.disabled = true;
    try {
      const page = await api.leagues({ limit: PAGE, before: next });
      const leagues = page.leagues || [];
      body.append(...leagues.map(row));
      next = page.next ?? null;
      table.hidden = body.children.length === 0;
      status.textContent = body.children.length ? "" : t("leagues.empty");
      status.hidden = body.children.length > 0;
    } catch (error) {
      // An older server without the list: show the leagues this browser knows, as before.
      const known = knownLeagues.get();
      if (!body.children.length && known.length) {
        body.append(...known.map((l) => h("tr", { "data-league": String(l.id) },
          h("th", { scope: "row" }, h("a", { href: `#/league/${l.id}` }, l.name)),
          h("td", { colspan: 4 }, ""))));
        table.hidden = false;
      }
      status.hidden = false;
      status.textContent = problem(error);
      next = null;
    } finally {
      more.hidden = next === null;
      more.disabled = false;
    }
  };
  more.addEventListener("click", load);
  load();
  return h("section.card-panel.league-list", {}, h("h2", {}, t("leagues.all")), status, table, more);
}

// The server's ranking keys (app/store/leagues.py), so both views order members the same way.
function rankKey(scoring, row) {
  if (scoring === "winner_takes") return [row.matches === 0, -row.wins, -(row.rounds_won ?? 0), -row.points];
  const average = row.rounds ? row.points / row.rounds : 1e9;
  return [row.matches === 0, row.losses, -(row.matches - row.losses), average];
}

function compareKeys(a, b) {
  for (let i = 0; i < a.length; i++) {
    if (a[i] < b[i]) return -1;
    if (a[i] > b[i]) return 1;
  }
  return 0;
}

export function rankStandings(scoring, rows) {
  const sorted = [...rows].sort((a, b) => compareKeys(rankKey(scoring, a), rankKey(scoring, b))
    || String(a.name).localeCompare(String(b.name)));
  let place = 0;
  return sorted.map((row, i) => {
    if (i === 0 || compareKeys(rankKey(scoring, sorted[i - 1]), rankKey(scoring, row)) !== 0) place = i + 1;
    return { ...row, place };
  });
}

function standingsTable(scoring, rows) {
  const lowest = scoring === "lowest_wins";
  const cols = lowest
    ? [["col.matches", "matches"], ["col.losses", "losses"], ["col.wins", "survived"], ["col.points", "average"]]
    : [["col.matches", "matches"], ["col.wins", "wins"], ["col.losses", "losses"], ["col.points", "points"]];
  return h("div.table-scroll", {}, h("table.standings", {},
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("col.rank")), h("th", { scope: "col" }, t("col.player")),
      cols.map(([key]) => h("th.num", { scope: "col" }, t(key))))),
    h("tbody", {}, rows.map((row) => h("tr", {},
      h("td", {}, String(row.place)),
      h("th", { scope: "row" }, row.player !== undefined ? h("a", { href: `#/player/${row.player}` }, row.name) : row.name),
      cols.map(([, field]) => h("td.num", {}, row[field] === null || row[field] === undefined ? "—" : String(row[field]))))))));
}

export function mountLeague(root, id) {
  root.replaceChildren(h("p.card-panel", {}, t("loading")));
  let shown = null;
  api.league(id).then((league) => {
    knownLeagues.add({ id: league.id ?? id, name: league.name });
    shown = league.scoring;
    const slot = h("div");
    const tabs = h("div.tabs", { role: "group", "aria-label": t("leagues.scoring") });
    const draw = () => {
      const rows = shown === league.scoring ? league.standings : rankStandings(shown, league.standings);
      replaceChildren(tabs, ["winner_takes", "lowest_wins"].map((s) => h("button", {
        class: s === shown ? "tab active" : "tab", "aria-pressed": s === shown ? "true" : "false", key: `tab-${s}`,
        onclick: () => { shown = s; draw(); },
      }, t(`leagues.scoring.${s}`))));
      replaceChildren(slot, rows.length ? standingsTable(shown, rows) : h("p.muted", {}, t("leagues.none")));
    };
    draw();
    root.replaceChildren(h("div.page", {},
      h("h1", {}, league.name),
      h("p.muted", {}, `${t(`leagues.scoring.${league.scoring}`)} · ${t("leagues.target")}: ${league.target}`),
      h("section.card-panel", {}, h("h2", {}, t("leagues.standings")), tabs, slot)));
  }).catch((error) => {
    root.replaceChildren(h("p.card-panel.form-error", { role: "alert" }, problem(error)));
  });
}
