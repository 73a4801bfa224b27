// An event in words for the log (and the replay viewer): what happened, as a person would say it.
import { t, cardName } from "./i18n.js";
import { colorName } from "./colors.js";

export function seatName(state, seat, mySeat = null) {
  if (seat === null || seat === undefined) return "?";
  const info = state?.seats?.[seat];
  const name = info?.name || t("seat.name", { n: seat + 1 });
  return seat === mySeat ? `${name} (${t("seat.you")})` : name;
}

/** Words for one event, or null when it says nothing worth logging. */
export function describe(event, state, mySeat = null) {
  const name = (seat) => seatName(state, seat, mySeat);
  const labels = (state?.rules?.custom_cards || []).map((c) => c.label);
  const card = (text) => cardName(text, labels);
  const e = event;
  switch (e.kind) {
    case "round_started":
      return t("log.round_started", { round: e.round, dealer: name(e.dealer) });
    case "first_card":
      return [e.returned?.length ? t("log.first_card_returned") : "", t("log.first_card", { card: card(e.card) })]
        .filter(Boolean).join(" ");
    case "played":
      if (e.more?.length) {
        return t("log.played_many", { name: name(e.seat), cards: [e.card, ...e.more].map(card).join(", ") });
      }
      return e.card.startsWith("W")
        ? t("log.played_wild", { name: name(e.seat), card: card(e.card), color: colorName(e.color) })
        : t("log.played", { name: name(e.seat), card: card(e.card) });
    case "drew": {
      const penalty = e.reason !== "draw" && e.reason !== "timeout";
      const words = t(penalty ? "log.drew_penalty" : "log.drew", { name: name(e.seat), n: e.count });
      if (Array.isArray(e.cards) && e.cards.length) {
        return `${words} ${t("log.drew_cards", { cards: e.cards.map(card).join(", ") })}`;
      }
      return words;
    }
    case "kept":
      return t("log.kept", { name: name(e.seat) });
    case "turn":
      return e.seat === mySeat && mySeat !== null ? t("log.your_turn") : t("log.turn", { name: name(e.seat) });
    case "skipped":
      return t("log.skipped", { name: name(e.seat) });
    case "reversed":
      return t("log.reversed", { direction: t(`table.direction.${e.direction}`) });
    case "color_chosen":
      return t("log.color_chosen", { name: name(e.seat), color: colorName(e.color) });
    case "challenged":
      return t(e.guilty ? "log.challenged_guilty" : "log.challenged_innocent",
        { name: name(e.seat), offender: name(e.offender) });
    case "uno_called":
      return t("log.uno_called", { name: name(e.seat) });
    case "caught":
      return t("log.caught", { name: name(e.seat), by: name(e.by) });
    case "catch_open":
      return t("log.catch_open", { name: name(e.seat) });
    case "false_catch":
      return t("log.false_catch", { name: name(e.seat), target: name(e.target) });
    case "reshuffled":
      return t("log.reshuffled");
    case "hands_shuffled":
      return t("log.hands_shuffled", { name: name(e.seat) });
    case "hands_passed":
      return t("log.hands_passed");
    case "hands_swapped":
      return t("log.hands_swapped", { name: name(e.seat), target: name(e.target) });
    case "discarded":
      return t("log.discarded", { name: name(e.seat), n: e.cards.length });
    case "custom_effect":
      return t("log.custom_effect", { name: name(e.seat), effect: t(`effect.${e.effect}`) });
    case "chat":
      return t("log.chat", { name: name(e.seat), text: e.text });
    case "timed_out":
      return t("log.timed_out", { name: name(e.seat) });
    case "round_over":
      if (Array.isArray(e.winning_teams) && e.teams) {
        return t("log.round_over_team", { team: e.winning_teams.map((n) => t("team.name", { n: n + 1 })).join(", "), round: e.round });
      }
      if (Array.isArray(e.winners) && e.winners.length > 1) {
        return t("log.round_over", { name: e.winners.map(name).join(", "), round: e.round });
      }
      return t("log.round_over", { name: name(e.winner), round: e.round });
    case "match_over":
      if (Array.isArray(e.teams)) {
        const won = e.teams.map((_, n) => n).filter((n) => e.teams[n].some((seat) => (e.winners || []).includes(seat)));
        return t("log.match_over", { names: won.map((n) => t("team.name", { n: n + 1 })).join(", ") });
      }
      return t("log.match_over", { names: (e.winners || []).map(name).join(", ") });
    case "jumped_in":
      return t("log.jumped_in", { name: name(e.seat), card: card(e.card) });
    case "misplay":
      return t("log.misplay", { name: name(e.seat), card: card(e.card) });
    case "silence":
      return t(e.active ? "log.silence_on" : "log.silence_off");
    case "slap_started":
      return t("log.slap_started", { name: name(e.seat) });
    case "slapped":
      return t("log.slapped", { name: name(e.seat) });
    case "slap_over":
      return (e.losers || []).length ? t("log.slap_over", { names: e.losers.map(name).join(", ") }) : null;
    case "exchange_started":
      return t("log.exchange_started", { name: name(e.seat), target: name(e.target) });
    case "gave":
      return e.card ? t("log.gave_card", { card: card(e.card) }) : t("log.gave", { name: name(e.seat) });
    case "exchanged":
      return e.gave ? t("log.exchanged_mine", { gave: card(e.gave), received: card(e.received) })
        : t("log.exchanged", { name: name(e.seat), target: name(e.target) });
    case "refilled":
      return t("log.refilled", { name: name(e.seat), n: e.count });
    case "went_out":
      return t("log.went_out", { name: name(e.seat), place: e.place });
    // Section 8b (rules from online tables).
    case "passed":
      return t("log.passed", { name: name(e.seat) });
    case "bomb":
      return t("log.bomb", { name: name(e.seat), n: e.count });
    case "revealed":
      return Array.isArray(e.hand)
        ? t("log.revealed", { name: name(e.seat), cards: e.hand.map(card).join(", ") })
        : t("log.hidden", { name: name(e.seat) });
    case "clock_over":
      return t("log.clock_over", { names: (e.winners || []).map(name).join(", ") });
    case "eliminated":
      return t("log.eliminated", { name: name(e.seat), n: (e.remaining || []).length });
    default:
      return describeRoomEvent(e, name);
  }
}

// Room events (app/rooms): who sat down, left, came back; the host; the rules; the start.
function describeRoomEvent(e, name) {
  const who = e.name || (typeof e.seat === "number" ? name(e.seat) : "");
  switch (e.kind) {
    case "joined":
      return t("log.joined", { name: who });
    case "left":
      return t(e.reason === "kicked" ? "log.kicked" : "log.left", { name: who });
    case "replaced":
      return t("log.replaced", { name: who });
    case "presence":
      return t(e.connected ? "log.connected" : "log.disconnected", { name: name(e.seat) });
    case "host_changed":
      return e.host === null || e.host === undefined ? null : t("log.host", { name: name(e.host) });
    case "rules_changed":
      return t("log.rules");
    case "match_started":
      return t("log.started");
    case "seats_freed":
      return (e.freed || []).length ? t("log.seats_freed", { n: e.freed.length }) : null;
    case "reaction":
    case "spectators":
      return null; // shown on the table, not in the log
    default:
      return null;
  }
}
