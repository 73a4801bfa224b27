// The party screen (#/tv/CODE): the table on a big 16:9 screen, read from across the room. The
// seats sit around an oval, the room code and the join link's QR code are always on show, and
// the big moments (UNO, a catch, a challenge, a jump-in, a stack growing) fill the screen for a
// few seconds, then go.
import { h } from "./dom.js";
import { t, cardName } from "./i18n.js";
import { seatName } from "./describe.js";

const MOMENT_MS = 3200;

/** Put each seat tile on the oval: the first at the bottom, then clockwise in play order. */
export function placeSeats(list) {
  const tiles = [...list.children];
  const n = tiles.length;
  tiles.forEach((tile, i) => {
    const angle = Math.PI / 2 + (2 * Math.PI * i) / Math.max(n, 1);
    tile.style.left = `${50 + 41 * Math.cos(angle)}%`;
    tile.style.top = `${50 + 39 * Math.sin(angle)}%`;
  });
}

/** The side of the party screen: the room code, the QR code of the join link, who watches. */
export function partySide(code, state) {
  const link = `${location.origin}${location.pathname}#/room/${code}`;
  const seated = state?.seats?.length ?? 0;
  return [
    h("div.tv-code", {},
      h("span.tv-code-label", {}, t("tv.room_code")),
      h("span.tv-code-value", { "data-testid": "tv-code" }, code)),
    h("figure.tv-qr", {},
      h("img", { src: `/api/rooms/${encodeURIComponent(code)}/qr.svg`, alt: t("tv.qr_alt", { code }), width: 300, height: 300 }),
      h("figcaption", {}, state?.phase === "lobby" || state?.phase === "match_over" ? t("tv.scan_to_join") : t("tv.scan_next"))),
    h("p.tv-link", {}, link),
    h("p.tv-counts", {},
      h("span", {}, t("tv.players", { n: seated })), " · ",
      h("span", { "data-testid": "tv-spectators" }, t("room.watching", { n: state?.spectators ?? 0 }))),
  ];
}

/** In the lobby the center of the oval invites everyone in. */
export function partyLobbyCenter(code) {
  return h("div.tv-lobby", {},
    h("p.tv-lobby-title", {}, t("tv.waiting")),
    h("p.tv-lobby-code", {}, t("tv.join_with", { code })));
}

/** The big moment an event makes, or null: {kind, title, line}. */
export function momentOf(event, state, before) {
  const name = (seat) => seatName(state, seat);
  const labels = (state?.rules?.custom_cards || []).map((c) => c.label);
  switch (event.kind) {
    case "uno_called":
      return { kind: "uno", title: t("moment.uno"), line: name(event.seat) };
    case "caught":
      return { kind: "caught", title: t("moment.caught"), line: t("moment.caught_line", { by: name(event.by), name: name(event.seat) }) };
    case "challenged":
      return { kind: "challenge", title: t("moment.challenge"),
        line: t(event.guilty ? "moment.challenge_guilty" : "moment.challenge_fair", { name: name(event.seat), offender: name(event.offender) }) };
    case "jumped_in":
      return { kind: "jump", title: t("moment.jump_in"), line: t("moment.jump_in_line", { name: name(event.seat), card: cardName(event.card, labels) }) };
    case "turn": {
      const p = event.pending;
      if (p?.kind !== "stack") return null;
      const grew = before?.kind === "stack" && (p.amount ?? 0) > (before.amount ?? 0);
      return { kind: "stack", title: `+${p.amount}`, line: t(grew ? "moment.stack_grew" : "moment.stack", { name: name(p.seat), n: p.amount }) };
    }
    case "bomb":
      return { kind: "bomb", title: t("moment.bomb"), line: t("moment.bomb_line", { name: name(event.seat), n: event.count }) };
    case "clock_over":
      return { kind: "clock", title: t("moment.clock"), line: (event.winners || []).map(name).join(", ") };
    case "eliminated":
      return { kind: "eliminated", title: t("moment.eliminated"), line: name(event.seat) };
    default:
      return null;
  }
}

/** Show a moment large in `layer` for a few seconds (a newer one replaces it: a new element,
 * so its animation starts again). */
export function showMoment(layer, moment) {
  if (!layer || !moment) return;
  clearTimeout(layer.momentTimer);
  layer.replaceChildren(h(`div.big-moment.moment-${moment.kind}`, { "data-testid": "big-moment" },
    h("span.moment-title", {}, moment.title),
    moment.line ? h("span.moment-line", {}, moment.line) : null));
  layer.momentTimer = setTimeout(() => layer.replaceChildren(), MOMENT_MS);
}
