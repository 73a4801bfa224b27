// A player's match history: their latest matches, who played, who won, with a replay link.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { api, profile, ApiError } from "./api.js";
import { errorText } from "./errors.js";

export function mountHistory(root, playerId) {
  const id = playerId ?? profile.get().id;
  if (id === undefined || id === null) {
    root.replaceChildren(h("div.page", {}, h("h1", {}, t("history.title")),
      h("p.card-panel", {}, t("history.need_profile"), " ", h("a", { href: "#/" }, t("nav.home")))));
    return;
  }
  root.replaceChildren(h("p.card-panel", {}, t("loading")));
  Promise.all([api.player(id).catch(() => null), api.playerMatches(id)]).then(([player, data]) => {
    const matches = Array.isArray(data) ? data : data?.matches || [];
    root.replaceChildren(h("div.page", {},
      h("h1", {}, player?.name ? `${t("history.title")}: ${player.name}` : t("history.title")),
      player ? h("p.muted", {}, `${t("col.matches")}: ${player.matches} · ${t("col.wins")}: ${player.wins}`) : null,
      h("section.card-panel", {},
        matches.length ? h("div.table-scroll", {}, h("table.history", {},
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("col.date")), h("th", { scope: "col" }, t("col.players")),
            h("th", { scope: "col" }, t("col.result")), h("th", { scope: "col" }, h("span.visually-hidden", {}, t("history.replay"))))),
          h("tbody", {}, matches.map((m) => h("tr", {},
            h("td", {}, m.started_at ? new Date(m.started_at).toLocaleString() : "—"),
            h("td", {}, (m.players || []).join(", ")),
            h("td", {}, m.status === "finished" ? (m.won ? t("history.won") : t("history.lost")) : m.status || ""),
            h("td", {}, h("a.button.secondary", { href: `#/match/${m.id}` }, t("history.replay"))))))))
          : h("p.muted", {}, t("history.none")))));
  }).catch((error) => {
    root.replaceChildren(h("p.card-panel.form-error", { role: "alert" },
      error instanceof ApiError ? errorText(error.code, error.message) : t("error.unknown")));
  });
}
