// The bar above the table (room, its tournament, connection state, who watches, the log drawer,
// keys, sound, TV mode) and the timers.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { closeText } from "./errors.js";
import { icon } from "./icons.js";

/** The connection state in words. */
export function statusText(status, closedCode, code, closedReason) {
  return status === "closed" ? closeText(closedCode, code, closedReason)
    : status === "open" ? t("table.connected")
      : status === "reconnecting" ? t("table.reconnecting") : t("table.connecting");
}

/** The bar's children: the room, "watching", the connection state in words, the audience,
 * the log drawer's switch (laptop screens), the keys, the sound switch, TV mode. */
export function tableBar({ code, mode, status, closedCode, closedReason, spectators, muted, onMute, drawer, onDrawer, unread, onKeys, tournament = null }) {
  const closed = status === "closed";
  const tvLink = mode === "tv"
    ? h("a.button.secondary", { href: `#/watch/${code}` }, t("room.tv_exit"))
    : h("a.button.secondary", { href: `#/tv/${code}` }, icon("tv"), t("room.tv"));
  return [
    h("h1.room-title", {}, t("room.title", { code })),
    // A tournament's table: back to its page (standings, the next round's table).
    tournament && mode !== "tv" ? h("a.button.secondary.back-to-tournament", { href: `#/t/${tournament}` }, t("tour.back", { code: tournament })) : null,
    mode !== "play" ? h("span.badge.watching", {}, t("room.spectating")) : null,
    h("span.connection", { class: status, "data-testid": "connection" },
      h("span.dot", { "aria-hidden": "true" }), statusText(status, closedCode, code, closedReason)),
    typeof spectators === "number"
      ? h("span.spectator-count", { "data-testid": "spectators" }, icon("eye"), t("room.watching", { n: spectators }))
      : null,
    closed && [4401, 4403].includes(closedCode)
      ? h("span.bar-actions", {},
          h("a.button.primary", { href: `#/room/${code}`, onclick: () => location.reload() }, t("join.submit")),
          h("a.button.secondary", { href: `#/watch/${code}` }, t("join.watch")))
      : closed && [4404, 4410].includes(closedCode)
        ? h("a.button.primary", { href: "#/" }, t("nav.home"))
        : null,
    mode === "tv" ? null : h("button.secondary.drawer-button", {
      type: "button", key: "drawer", "aria-expanded": drawer ? "true" : "false", "aria-controls": "log-area",
      "aria-keyshortcuts": "L", onclick: () => onDrawer(), "data-testid": "drawer-button",
    }, icon("log"), t("log.title"), unread ? h("span.unread", {}, t("log.unread", { n: unread })) : null),
    mode === "tv" ? null : h("button.secondary.keys-button", {
      type: "button", key: "keys", "aria-keyshortcuts": "?", "aria-haspopup": "dialog", onclick: () => onKeys(),
    }, icon("keyboard"), t("keys.button")),
    h("button.secondary.mute-button", { type: "button", key: "mute", "aria-pressed": muted ? "true" : "false",
      onclick: () => onMute(!muted), "data-testid": "mute" },
    icon(muted ? "muted" : "sound"), muted ? t("sound.off") : t("sound.on")),
    tvLink,
  ];
}

/** Fill every timer ring from the model's turn timer, and the round's clock (H-BLITZ). */
export function updateTimers(root, model) {
  const left = model.turnMs ? Math.max(0, model.turnMs - (performance.now() - model.turnStartedAt)) : 0;
  const seconds = Math.ceil(left / 1000);
  for (const ring of root.querySelectorAll("[data-timer]")) {
    ring.hidden = !model.turnMs;
    ring.style.setProperty("--left", String(model.turnMs ? left / model.turnMs : 0));
    ring.classList.toggle("low", left < 5000);
    ring.setAttribute("aria-label", t("table.timer", { n: seconds }));
    const text = ring.querySelector(".timer-text");
    if (text) text.textContent = String(seconds);
  }
  const clock = model.roundClockLeft();
  for (const box of root.querySelectorAll("[data-round-clock]")) {
    const total = Math.ceil((clock ?? 0) / 1000);
    const text = `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
    const time = box.querySelector(".round-clock-time");
    if (time && time.textContent !== text) time.textContent = text;
    box.classList.toggle("low", clock !== null && clock < 30000);
    box.setAttribute("aria-label", t("table.round_clock_left", { time: text }));
  }
}
