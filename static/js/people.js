// The room's people beyond its seats (O-QUEUE, O-APPROVAL, O-BAN): the host's panel of join
// requests and the queue to the next match, and a named spectator's own place in that queue.
// What changes here is spoken by the table's one live region (peopleNews), not by these panels.
import { h, stable } from "./dom.js";
import { t, lang } from "./i18n.js";
import { seatName } from "./describe.js";

/** The host's panel: who asks to come in (Admit / Deny), the queue in order (up, down, remove, ban). */
export function hostPeoplePanel(model, ui, actions) {
  const s = model.state;
  const requests = s.requests || [];
  const queue = s.queue || [];
  if (model.mySeat === null || s.host !== model.mySeat) return null;
  if (!requests.length && !queue.length) return null;
  return stable(ui, "hostPeople", JSON.stringify([lang(), requests, queue]),
    () => hostPeopleSection(requests, queue, actions));
}

function hostPeopleSection(requests, queue, actions) {
  const ids = queue.map((q) => q.spectator);
  const moved = (from, to) => {
    const order = [...ids];
    const [id] = order.splice(from, 1);
    order.splice(to, 0, id);
    return order;
  };
  return h("section.card-panel.people-panel", { "aria-labelledby": "people-title", "data-testid": "people-panel" },
    h("h2#people-title", {}, t("people.title")),
    requests.length ? h("div.requests", {},
      h("h3", {}, t("approval.requests")),
      h("ul.people-list", {}, requests.map((r) => h("li.person", { "data-request": r.request },
        h("span.person-name", {}, r.watch ? t("approval.asks_watch", { name: r.name }) : t("approval.asks_play", { name: r.name })),
        h("span.person-actions", {},
          h("button.primary", { key: `admit-${r.request}`, onclick: () => actions.admit(r.request) }, t("approval.admit"),
            h("span.visually-hidden", {}, ` ${r.name}`)),
          h("button.secondary", { key: `deny-${r.request}`, onclick: () => actions.deny(r.request) }, t("approval.deny"),
            h("span.visually-hidden", {}, ` ${r.name}`))))))) : null,
    queue.length ? h("div.queue", {},
      h("h3", {}, t("queue.title")),
      h("ol.people-list", {}, queue.map((q, i) => h("li.person", { "data-spectator": q.spectator },
        h("span.person-name", {}, t("queue.place", { n: i + 1, name: q.name || "?" })),
        h("span.person-actions", {},
          h("button.secondary.icon-button", { key: `up-${q.spectator}`, disabled: i === 0, "aria-label": t("queue.up", { name: q.name }),
            onclick: () => actions.queueOrder(moved(i, i - 1)) }, "▲"),
          h("button.secondary.icon-button", { key: `down-${q.spectator}`, disabled: i === queue.length - 1,
            "aria-label": t("queue.down", { name: q.name }), onclick: () => actions.queueOrder(moved(i, i + 1)) }, "▼"),
          h("button.link", { key: `unqueue-${q.spectator}`, onclick: () => actions.unqueue(q.spectator) },
            t("queue.remove", { name: q.name })),
          h("button.link.ban", { key: `ban-s-${q.spectator}`, onclick: () => actions.ban({ spectator: q.spectator }, q.name) },
            t("ban.button", { name: q.name }))))))) : null);
}

/** The host's ban buttons for the seated players (not oneself, not a bot), between matches. */
export function seatBanButtons(model, ui, actions) {
  const s = model.state;
  const me = model.mySeat;
  // Between matches only: during one the table keeps its room for the hand (a laptop's screen).
  if (me === null || s.host !== me || !["lobby", "match_over"].includes(s.phase)) return null;
  const people = s.seats.map((info, seat) => ({ info, seat })).filter(({ info, seat }) => seat !== me && !info.bot);
  if (!people.length) return null;
  const names = people.map(({ seat }) => [seat, seatName(s, seat)]);
  return stable(ui, "banSeats", JSON.stringify([lang(), names]), () => banSeatsSection(s, ui, people, actions));
}

function banSeatsSection(s, ui, people, actions) {
  // Made anew when the seats change: open or closed as the host left it.
  return h("details.ban-seats", { open: Boolean(ui.banOpen), ontoggle: (e) => (ui.banOpen = e.target.open) },
    h("summary", { key: "ban-summary" }, t("ban.title")),
    h("ul.people-list", {}, people.map(({ seat }) => h("li.person", {},
      h("button.link.ban", { key: `ban-${seat}`, onclick: () => actions.ban({ seat }, seatName(s, seat)) },
        t("ban.button", { name: seatName(s, seat) }))))));
}

/** A spectator's queue: join or leave it, and their place (announced when it changes). */
export function spectatorQueuePanel(model, ui, actions) {
  const s = model.state;
  const you = s.you || {};
  if (model.mySeat !== null || ui.mode !== "watch") return null;
  const named = typeof you.spectator === "number";
  const queued = named && typeof you.queued === "number";
  return stable(ui, "queuePanel", JSON.stringify([lang(), named, queued && you.queued]),
    () => queueSection(ui, actions, named, queued, you));
}

function queueSection(ui, actions, named, queued, you) {
  const name = h("input#queue-name", { type: "text", maxlength: 32, required: true, autocomplete: "nickname",
    value: ui.queueName || "", oninput: (e) => (ui.queueName = e.target.value) });
  return h("section.card-panel.queue-panel", { "aria-labelledby": "queue-title", "data-testid": "queue-panel" },
    h("h2#queue-title", {}, t("queue.title")),
    h("p.queue-place", {},
      queued ? t("queue.your_place", { n: you.queued + 1 }) : t("queue.hint")), // `queued` counts from 0
    queued
      ? h("button.secondary", { key: "unqueue", onclick: () => actions.leaveQueue() }, t("queue.leave"))
      : named
        ? h("button.primary", { key: "queue", onclick: () => actions.joinQueue() }, t("queue.join"))
        : h("form.queue-form", { onsubmit: (e) => { e.preventDefault(); actions.watchAndQueue(name.value.trim()); } },
            h("div.field", {}, h("label", { for: "queue-name" }, t("profile.name")), name),
            h("button.primary", { type: "submit", key: "queue" }, t("queue.join"))));
}

/** What a screen reader should hear of the room's people after `event` (or null). */
export function peopleNews(model, event) {
  const s = model.state;
  if (!s) return null;
  if (event.kind === "join_request" && event.name) {
    return event.watch ? t("approval.asks_watch", { name: event.name }) : t("approval.asks_play", { name: event.name });
  }
  return null;
}

/** A named spectator's place in the queue, in words, when it changed since `before`. */
export function queueNews(before, you) {
  const now = typeof you?.queued === "number" ? you.queued : null;
  if (typeof you?.spectator !== "number" || now === before) return null;
  return now === null ? t("queue.hint") : t("queue.your_place", { n: now + 1 });
}
