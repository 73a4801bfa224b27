// Boot and routes: #/ (lobby), #/room/CODE (your seat), #/watch/CODE, #/tv/CODE, #/leagues,
// #/league/ID, #/history, #/player/ID, #/match/ID (results and replay), #/t/CODE (a tournament)
// and #/tv/tournament/CODE (its party screen).
import { h, replaceChildren } from "./dom.js";
import { t, lang, setLang, onLangChange, LANGUAGES } from "./i18n.js";
import { mountLobby } from "./lobby.js";
import { mountTable } from "./table.js";
import { mountLeagues, mountLeague } from "./leagues.js";
import { mountHistory } from "./history.js";
import { mountReplay } from "./replay.js";
import { displayMenu } from "./display.js";
import { mountTournament } from "./tournament.js";
import { mountTournamentTv } from "./tournament-tv.js";

const ROUTES = [
  [/^\/?$/, (root) => mountLobby(root)],
  [/^\/room\/([A-Za-z0-9_-]+)$/, (root, code) => mountTable(root, { code: code.toUpperCase(), mode: "play" })],
  [/^\/watch\/([A-Za-z0-9_-]+)$/, (root, code) => mountTable(root, { code: code.toUpperCase(), mode: "watch" })],
  [/^\/tv\/tournament\/([A-Za-z0-9_-]+)$/, (root, code) => mountTournamentTv(root, code.toUpperCase())],
  [/^\/t\/([A-Za-z0-9_-]+)$/, (root, code) => mountTournament(root, code.toUpperCase())],
  [/^\/tv\/([A-Za-z0-9_-]+)$/, (root, code) => mountTable(root, { code: code.toUpperCase(), mode: "tv" })],
  [/^\/leagues$/, (root) => mountLeagues(root)],
  [/^\/league\/([^/]+)$/, (root, id) => mountLeague(root, id)],
  [/^\/history$/, (root) => mountHistory(root, null)],
  [/^\/player\/([^/]+)$/, (root, id) => mountHistory(root, id)],
  [/^\/match\/([^/]+)$/, (root, id) => mountReplay(root, id)],
];

let unmount = null;
let currentPath = null;

function path() {
  return decodeURIComponent(location.hash.replace(/^#/, "")) || "/";
}

function route() {
  const main = document.getElementById("content");
  const next = path();
  if (unmount) unmount();
  unmount = null;
  currentPath = next;
  document.body.dataset.route = next.split("/")[1] || "home";
  document.documentElement.dataset.route = document.body.dataset.route; // the party screen scales its type
  for (const [pattern, mount] of ROUTES) {
    const match = pattern.exec(next);
    if (match) {
      unmount = mount(main, ...match.slice(1)) || null;
      renderHeader();
      return;
    }
  }
  main.replaceChildren(h("p.card-panel", {}, t("error.not_found"), " ", h("a", { href: "#/" }, t("nav.home"))));
  renderHeader();
}

function renderHeader() {
  const header = document.getElementById("site-header");
  const select = h("select#lang-select", { "aria-label": t("nav.language"), onchange: (e) => setLang(e.target.value) },
    Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, selected: code === lang() }, name)));
  const current = document.body.dataset.route;
  const link = (href, key, routeName) => h("a", { href, "aria-current": current === routeName ? "page" : false }, t(key));
  replaceChildren(header,
    h("a.brand", { href: "#/" }, h("span.brand-card", { "aria-hidden": "true" }, "UNO"), h("span.brand-text", {}, t("app.title"))),
    h("nav", { "aria-label": t("nav.main") }, link("#/", "nav.home", "home"), link("#/leagues", "nav.leagues", "leagues"),
      link("#/history", "nav.history", "history")),
    h("div.header-tools", {}, displayMenu(),
      h("label.lang", { for: "lang-select" }, h("span.visually-hidden", {}, t("nav.language")), select)));
  document.querySelector(".skip-link").textContent = t("nav.skip");
  document.title = `UNO · ${t("app.title")}`;
}

window.addEventListener("hashchange", () => route());
onLangChange(() => {
  // The table and a tournament re-render themselves in place (keeping their sockets); other
  // pages simply re-mount.
  const r = document.body.dataset.route;
  if (["room", "watch", "tv", "t"].includes(r)) renderHeader();
  else route();
});
route();
export { currentPath };
