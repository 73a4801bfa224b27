// The seats around the table and the center (piles, color, direction, whose turn, timers).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { cardFace, cardBack, sortHand } from "./cards.js";
import { colorChip, colorName, currentClass, teamBadge, teamClass } from "./colors.js";
import { icon } from "./icons.js";
import { seatName } from "./describe.js";

/** Every seat in the order of play (`state.order`, H-SHUFFLESEATS), then any it leaves out. */
export function playOrder(state) {
  const n = state.seats.length;
  const order = (state.order || []).filter((seat) => seat >= 0 && seat < n);
  for (let seat = 0; seat < n; seat++) if (!order.includes(seat)) order.push(seat);
  return order;
}

/** The other seats in play order starting after this one (spectators: everyone, from the first). */
export function seatOrder(state, mySeat) {
  const order = playOrder(state);
  const at = mySeat === null ? -1 : order.indexOf(mySeat);
  if (at < 0) return order;
  return [...order.slice(at + 1), ...order.slice(0, at)];
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
  badges.push(teamBadge(info.team));
  const mine = mySeat === null ? null : state.seats[mySeat];
  if (seat !== mySeat && typeof info.team === "number" && mine?.team === info.team) {
    badges.push(h("span.badge.partner", {}, t("seat.partner")));
  }
  if (state.host === seat) badges.push(h("span.badge.host", {}, t("seat.host")));
  if (info.bot) badges.push(h("span.badge.bot", {}, t("seat.bot")));
  if (info.connected === false && !info.bot) badges.push(h("span.badge.offline", {}, t("seat.offline")));
  if (info.away) badges.push(h("span.badge.away", { "data-testid": "away-badge" }, h("span", { "aria-hidden": "true" }, "⏸ "), t("seat.away")));
  if (info.uno && info.cards === 1) badges.push(h("span.badge.uno", {}, t("seat.uno")));
  if (info.eliminated) badges.push(h("span.badge.eliminated", {}, t("seat.eliminated")));
  else if (info.out) {
    const place = (state.places || []).indexOf(seat);
    badges.push(h("span.badge.out", {}, place >= 0 ? t("seat.place", { n: place + 1 }) : t("seat.out")));
  }
  return badges.filter(Boolean);
}

/** H-REVEAL: a small hand shown to everyone. */
function shownHand(state, info) {
  if (!Array.isArray(info.hand)) return null;
  const labels = (state.rules?.custom_cards || []).map((c) => c.label);
  return h("div.seat-hand.mini-hand", { role: "group", "aria-label": t("seat.shown_hand") },
    sortHand(info.hand).map((c) => cardFace(c, { size: "tiny", customLabels: labels })));
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
  const away = info.connected === false && !info.bot;
  return h(
    "li.seat",
    {
      class: [active ? "active" : "", away ? "away" : "", info.uno && count === 1 ? "uno" : "",
        teamClass(info.team), info.eliminated ? "eliminated" : ""]
        .filter(Boolean).join(" "),
      "data-seat": seat,
      "aria-current": active ? "true" : false,
    },
    h("div.avatar", { "aria-hidden": "true" },
      active ? timerRing("small") : null,
      h("span.initial", {}, (info.name || String(seat + 1)).trim().slice(0, 1).toUpperCase() || "?"),
      h("span.presence", { class: away ? "off" : "on" })),
    h("div.seat-info", {},
      h("span.seat-name", {}, name),
      s.phase !== "lobby" ? h("span.seat-count", { "data-count": count }, countText) : null,
      h("span.badges", {}, seatBadges(s, seat, mySeat)),
      s.phase !== "lobby" ? h("span.seat-score", {}, t("seat.score", { n: info.score ?? 0 })) : null),
    shownHand(s, info) || (fan ? h("div.mini-fan", { "aria-hidden": "true" }, Array.from({ length: fan }, () => h("span.mini-back"))) : null),
    catchable
      ? h("button.catch", { key: `catch-${seat}`, onclick: () => actions.catchSeat(seat),
          "aria-label": t("seat.catch_label", { name }) }, t("seat.catch"))
      : null,
  );
}

/** H-BLITZ: the round's clock, filled in by the ticker. */
export function roundClock() {
  return h("div.round-clock", { role: "timer", "aria-live": "off", "data-round-clock": "", "data-testid": "round-clock" },
    h("span.round-clock-label", {}, t("table.round_clock")), " ", h("span.round-clock-time", {}, ""));
}

export function centerArea(model, actions) {
  const s = model.state;
  const mySeat = model.mySeat;
  const waiting = model.waitingOn;
  const direction = s.direction === -1 ? -1 : 1;
  const color = s.color;
  const mine = mySeat !== null && model.waitingSeats.includes(mySeat);
  let status;
  if (s.phase !== "playing") status = "";
  else if (model.allows("slap")) status = t("table.slap");
  else if (mine) status = t("table.your_turn");
  else if (s.pending && s.pending.kind !== "play_drawn") status = t("table.waiting_for", { name: seatName(s, waiting) });
  else status = t("table.turn_of", { name: seatName(s, waiting) });

  const drawPile = h("div.pile.draw-pile", {},
    model.allows("draw")
      ? h("button.pile-button", { key: "draw-pile", onclick: () => actions.draw(), "aria-label": t("table.draw_from_pile") },
          cardBack({ label: t("table.draw_pile") }))
      : cardBack({ label: t("table.draw_pile") }),
    h("span.pile-label", {}, t("table.draw_pile_count", { n: s.draw_pile ?? 0 })));
  const labels = (s.rules?.custom_cards || []).map((c) => c.label);
  const discard = h("div.pile.discard-pile", {},
    s.top ? cardFace(s.top, { size: "big", customLabels: labels }) : cardBack(),
    h("span.pile-label", {}, t("table.discard_pile")));
  const order = s.rules?.shuffle_seats && s.phase === "playing"
    ? h("p.play-order", { "data-testid": "play-order" },
        t("table.play_order", { names: playOrder(s).map((seat) => seatName(s, seat)).join(" → ") }))
    : null;
  return h("div.center", { class: currentClass(color) },
    h("div.direction", { class: direction === 1 ? "cw" : "ccw" },
      h("span.direction-icon", {}, icon(direction === 1 ? "cw" : "ccw")),
      h("span.direction-text", {}, t(`table.direction.${direction}`))),
    h("div.piles", {}, drawPile, discard),
    h("div.center-info", {},
      colorChip(color, color ? t("table.color", { color: colorName(color) }) : ""),
      s.phase === "playing"
        ? h("div.turn-status", { class: mine ? "mine" : "", "data-testid": "turn-banner" },
            timerRing(), h("span.turn-text", { "data-testid": "turn-status" }, status))
        : null,
      s.silence ? h("div.silence-chip", {}, t("table.silence")) : null,
      h("div.center-foot", {},
        s.round ? h("span.round-no", {}, t("table.round", { n: s.round })) : null,
        typeof s.clock_ends_ms === "number" && s.phase === "playing" ? roundClock() : null,
        order)),
  );
}
