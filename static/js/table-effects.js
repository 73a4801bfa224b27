// What an event does beyond the model: a card flying to the pile or into a hand, a sound cue,
// a reaction floating up, a big moment on the party screen. Read before the re-render (where a
// card starts), run after it (where it lands).
import { cardFace, cardBack } from "./cards.js";
import { cue } from "./sound.js";
import { flyCard, slideIn, rectOf } from "./motion.js";
import { floatReaction } from "./audience.js";
import { momentOf, showMoment } from "./party.js";

const PLAIN_DRAWS = new Set(["draw", "timeout"]);

function seatRect(root, seat) {
  return rectOf(root.querySelector(`li.seat[data-seat="${seat}"]`));
}

/** Before the model applies `event`: what the effects need to know of the page as it is. */
export function beforeEvent(view, event) {
  const m = view.model;
  const root = view.root;
  const mine = m.mySeat !== null && event.seat === m.mySeat && view.mode === "play";
  const before = {
    wasWaitedOn: m.mySeat !== null && m.waitingSeats.includes(m.mySeat),
    pending: m.state?.pending ? { ...m.state.pending } : null,
    drawRect: rectOf(root.querySelector(".draw-pile .card")),
    from: null,
  };
  if (event.kind === "played") {
    before.from = mine ? rectOf(root.querySelector(`ul.hand button.card[data-card="${CSS.escape(event.card)}"]`))
      : seatRect(root, event.seat);
  }
  return before;
}

/** After the model applied `event` and the table re-rendered. */
export function afterEvent(view, event, before) {
  const m = view.model;
  const s = m.state;
  const root = view.root;
  const me = m.mySeat;
  const playing = view.mode === "play";
  switch (event.kind) {
    case "played": {
      const cards = [event.card, ...(event.more || [])];
      const pile = rectOf(root.querySelector(".discard-pile .card"));
      const labels = (s.rules?.custom_cards || []).map((c) => c.label);
      if (pile) flyCard(cardFace(cards[cards.length - 1], { customLabels: labels }), before.from, pile);
      break;
    }
    case "drew":
      if (playing && event.seat === me && Array.isArray(event.cards)) {
        const buttons = [...root.querySelectorAll("ul.hand button.card")];
        const used = new Set();
        event.cards.forEach((card, i) => {
          const el = buttons.filter((b) => b.dataset.card === card && !used.has(b)).pop();
          if (el) {
            used.add(el);
            slideIn(el, before.drawRect, i * 60);
          }
        });
      } else {
        const target = seatRect(root, event.seat);
        if (target && before.drawRect) flyCard(cardBack({ size: "small" }), before.drawRect, target, { width: 40 });
      }
      if (!PLAIN_DRAWS.has(event.reason) && (!playing || event.seat === me)) cue("penalty");
      break;
    case "uno_called":
      cue("uno");
      break;
    case "caught":
      cue("caught");
      break;
    case "reaction":
      floatReaction(view.reactionLayer, event, s, me);
      break;
    default:
      break;
  }
  if (playing && me !== null && !before.wasWaitedOn && m.waitingSeats.includes(me)) cue("turn");
  if (view.mode === "tv") showMoment(view.momentLayer, momentOf(event, s, before.pending));
}
