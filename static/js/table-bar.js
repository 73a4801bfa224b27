// The bar above the table (room, connection state, who watches, sound, TV mode) and the timers.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { closeText } from "./errors.js";

/** The bar's children: the room, "watching", the connection state in words, the audience,
 * the sound switch, TV mode. */
export function tableBar({ code, mode, status, closedCode, spectators, muted, onMute }) {
  const closed = status === "closed";
  const statusText = closed ? closeText(closedCode, code)
    : status === "open" ? t("table.connected")
      : status === "reconnecting" ? t("table.reconnecting") : t("table.connecting");
  const tvLink = mode === "tv"
    ? h("a.button.secondary", { href: `#/watch/${code}` }, t("room.tv_exit"))
    : h("a.button.secondary", { href: `#/tv/${code}` }, t("room.tv"));
  return [
    h("h1.room-title", {}, t("room.title", { code })),
    mode !== "play" ? h("span.badge.watching", {}, t("room.spectating")) : null,
    h("span.connection", { class: status, role: "status", "data-testid": "connection" },
      h("span.dot", { "aria-hidden": "true" }), statusText),
    typeof spectators === "number"
      ? h("span.spectator-count", { "data-testid": "spectators", title: t("room.watching", { n: spectators }) },
          h("span", { "aria-hidden": "true" }, "👀 "), t("room.watching", { n: spectators }))
      : null,
    closed && [4401, 4403].includes(closedCode)
      ? h("span.bar-actions", {},
          h("a.button.primary", { href: `#/room/${code}`, onclick: () => location.reload() }, t("join.submit")),
          h("a.button.secondary", { href: `#/watch/${code}` }, t("join.watch")))
      : closed && [4404, 4410].includes(closedCode)
        ? h("a.button.primary", { href: "#/" }, t("nav.home"))
        : null,
    h("button.secondary.mute-button", { type: "button", key: "mute", "aria-pressed": muted ? "true" : "false",
      onclick: () => onMute(!muted), "data-testid": "mute" },
    h("span", { "aria-hidden": "true" }, muted ? "🔇 " : "🔊 "), muted ? t("sound.off") : t("sound.on")),
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
