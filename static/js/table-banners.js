// Lines across the table that stay until the situation ends: your seat is away (O-IDLE: "I'm
// back"), the database is away (store_unavailable), you wait for the host to let you in. The
// table's live regions (announcer.js) say them; these only show them.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { icon } from "./icons.js";

export function banners(view) {
  const m = view.model;
  const s = m.state;
  const out = [];
  if (view.storeWaiting) {
    out.push(h("p.banner.store-banner", { "data-testid": "store-banner" }, icon("cw"), t("store.waiting")));
  }
  const mine = s && m.mySeat !== null ? s.seats?.[m.mySeat] : null;
  if (mine?.away && view.mode === "play") {
    out.push(h("div.banner.away-banner", {},
      h("p", {}, t("away.you")),
      h("button.primary", { key: "back", onclick: () => view.actions.back() }, t("away.back"))));
  }
  return out;
}

/** O-APPROVAL: the page of someone the host has not let in yet, or turned away. */
export function waitingScreen(view) {
  if (view.status === "closed" && view.closedCode === 4403) {
    return h("section.card-panel.waiting-screen", { role: "alert" },
      h("h1", {}, t("approval.denied_title")), h("p", {}, t("approval.denied")),
      h("a.button.secondary", { href: "#/" }, t("nav.home")));
  }
  return h("section.card-panel.waiting-screen", { "aria-labelledby": "waiting-title" },
    h("h1#waiting-title", {}, t("approval.waiting_title", { code: view.code })),
    h("p", {}, t("approval.waiting")));
}
