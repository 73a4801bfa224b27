// The seats around the table and the center (piles, color, direction, whose turn, timer ring).
import { h } from "./dom.js";
import { t, colorName } from "./i18n.js";
import { cardFace, cardBack } from "./cards.js";
import { seatName } from "./describe.js";

/** Seats clockwise starting after this seat (spectators: from seat 0); fixed when play reverses. */
export function seatOrder(state, mySeat) {
  const n = state.seats.length;
  if (mySeat === null) return Array.from({ length: n }, (_, i) => i);
  return Array.from({ length: n - 1 }, (_, i) => (mySeat + 1 + i) % n);
}

export function timerRing(extraClass = "") {
  // Filled by the ticker in table.js from the model's turn timer.
  return h(`span.timer-ring${extraClass ? "." + extraClass : ""}`, { "data-timer": "", role: "timer", "aria-label": "" },
    h("span.timer-text", { "aria-hidden": "true" }));
}

export function seatBadges(state, seat, mySeat) {
  const info = state.seats[seat] || {};
  const badges = [];
  if (seat === mySeat) badges.push(h("span.badge.you", {}, t("seat.you")));
  if (state.host === seat) badges.push(h("span.badge.host", {}, t("seat.host")));
  if (info.bot) badges.push(h("span.badge.bot", {}, t("seat.bot")));
  if (info.connected === false && !info.bot) badges.push(h("span.badge.offline", {}, t("seat.offline")));
  if (info.uno && info.cards === 1) badges.push(h("span.badge.uno", {}, t("seat.uno")));
  if (info.out) {
    const place = (state.places || []).indexOf(seat);
    badges.push(h("span.badge.out", {}, place >= 0 ? t("seat.place", { n: place + 1 }) : t("seat.out")));
  }
  return badges;
}

/** One opponent (or every player, for spectators): name, count, connection, UNO, Catch. */
export function seatTile(model, seat, actions) {
  const s = model.state;
  const info = s.seats[seat] || {};
  const mySeat = model.mySeat;
  const active = model.waitingSeats.includes(seat);
  const name = seatName(s, seat);
  const count = info.cards ?? 0;
  const catchable = model.catchableSeats().includes(seat);
  const countText = count === 1 ? t("seat.card") : t("seat.cards", { n: count });
  const fan = Math.min(count, 7);
  return h(
    "li.seat",
    {
      class: [active ? "active" : "", info.connected === false && !info.bot ? "away" : "", info.uno && count === 1 ? "uno" : ""]
        .filter(Boolean).join(" "),
      "data-seat": seat,
      "aria-current": active ? "true" : false,
    },
    h("div.avatar", { "aria-hidden": "true" },
      active ? timerRing("small") : null,
      h("span.initial", {}, (info.name || String(seat + 1)).trim().slice(0, 1).toUpperCase() || "?"),
      h("span.presence", { class: info.connected === false && !info.bot ? "off" : "on" })),
    h("div.seat-info", {},
      h("span.seat-name", {}, name),
      h("span.seat-count", { "data-count": count }, countText),
      h("span.badges", {}, seatBadges(s, seat, mySeat)),
      s.phase !== "lobby" ? h("span.seat-score", {}, t("seat.score", { n: info.score ?? 0 })) : null),
    h("div.mini-fan", { "aria-hidden": "true" }, Array.from({ length: fan }, () => h("span.mini-back"))),
    catchable
      ? h("button.catch", { key: `catch-${seat}`, onclick: () => actions.catchSeat(seat),
          "aria-label": t("seat.catch_label", { name }) }, t("seat.catch"))
      : null,
  );
}

export function centerArea(model, actions) {
  const s = model.state;
  const mySeat = model.mySeat;
  const waiting = model.waitingOn;
  const direction = s.direction === -1 ? -1 : 1;
  const color = s.color;
  let status;
  if (s.phase !== "playing") status = "";
  else if (model.mustSlap) status = t("table.slap");
  else if (model.waitingSeats.includes(mySeat) && mySeat !== null) status = t("table.your_turn");
  else if (s.pending && s.pending.kind !== "play_drawn") status = t("table.waiting_for", { name: seatName(s, waiting) });
  else status = t("table.turn_of", { name: seatName(s, waiting) });

  const drawEnabled = model.myMove && (!s.pending || s.pending.kind === "stack");
  const drawPile = h("div.pile.draw-pile", {},
    drawEnabled
      ? h("button.pile-button", { key: "draw-pile", onclick: () => actions.draw(), "aria-label": t("table.draw_from_pile") },
          cardBack({ label: t("table.draw_pile") }))
      : cardBack({ label: t("table.draw_pile") }),
    h("span.pile-label", {}, t("table.draw_pile_count", { n: s.draw_pile ?? 0 })));
  const labels = (s.rules?.custom_cards || []).map((c) => c.label);
  const discard = h("div.pile.discard-pile", {},
    s.top ? cardFace(s.top, { size: "big", customLabels: labels }) : cardBack(),
    h("span.pile-label", {}, t("table.discard_pile")));
  return h("div.center", { class: color ? `current-${color}` : "" },
    h("div.direction", { class: direction === 1 ? "cw" : "ccw", title: t(`table.direction.${direction}`) },
      h("span.direction-icon", { "aria-hidden": "true" }, direction === 1 ? "↻" : "↺"),
      h("span.direction-text", {}, t(`table.direction.${direction}`))),
    h("div.piles", {}, drawPile, discard),
    h("div.color-chip", { class: color ? `c-${color}` : "none" },
      h("span.swatch", { "aria-hidden": "true" }),
      h("span", { "data-testid": "current-color" }, color ? t("table.color", { color: colorName(color) }) : "")),
    s.silence ? h("div.silence-chip", { role: "status" }, t("table.silence")) : null,
    s.phase === "playing"
      ? h("div.turn-status", { class: model.waitingSeats.includes(mySeat) ? "mine" : "", role: "status" },
          timerRing(), h("span.turn-text", { "data-testid": "turn-status" }, status))
      : null,
    s.round ? h("div.round-no", {}, t("table.round", { n: s.round })) : null,
  );
}
