// Where the keyboard focus goes at the table: into the hand when the turn comes, into a
// question (a colour, a target, a challenge, a stack, a drawn card, a slap) when one is asked,
// and back where it was when the question goes. The hand is one stop in the Tab order; arrow
// keys move inside it (keys.js).
import { rove } from "./keys.js";

const typing = () => document.activeElement?.closest?.("input, select, textarea, dialog[open]");

export class TableFocus {
  constructor(view) {
    this.view = view;
    this.dialog = null; // the kind of question shown at the last render
    this.returnTo = null; // what had focus before it took it: {element, key}
    this.handKey = null; // the data-key of the hand's card that last had focus
    this.wasMyMove = false;
  }

  cards() {
    return [...this.view.handEl.querySelectorAll("ul.hand button.card")];
  }

  /** The hand's one stop in the Tab order: the card last focused, else the first playable. */
  handStop() {
    const cards = this.cards();
    if (!cards.length) return null;
    const active = cards.find((c) => c === document.activeElement);
    const stop = active || cards.find((c) => c.dataset.key === this.handKey)
      || cards.find((c) => c.getAttribute("aria-disabled") !== "true") || cards[0];
    rove(cards, stop);
    return stop;
  }

  /** Focus the hand: its first playable card when it is this seat's move, else its stop. */
  focusHand() {
    const cards = this.cards();
    const m = this.view.model;
    const playable = (m.myMove || m.allows("give")) && cards.find((c) => c.getAttribute("aria-disabled") !== "true");
    const target = playable || this.handStop() || this.view.handEl.querySelector("h2");
    if (playable) rove(cards, playable);
    target?.focus({ preventScroll: true });
  }

  noteFocus(element) {
    if (element?.matches?.("ul.hand button.card")) this.handKey = element.dataset.key;
  }

  /** After each render: the hand's stop, questions that came or went, the turn that came. */
  afterRender(handHadFocus) {
    const v = this.view;
    this.handStop();
    if (handHadFocus && !v.handEl.contains(document.activeElement)) this.focusHand();
    const question = v.promptEl.querySelector("[data-dialog]");
    const kind = question?.dataset.dialog ?? null;
    if (kind && kind !== this.dialog) {
      const active = document.activeElement;
      const here = !active || active === document.body || v.root.contains(active);
      if (here && !document.querySelector("dialog[open]")) {
        if (!this.dialog) this.returnTo = active && active !== document.body ? { element: active, key: active.dataset?.key } : null;
        (question.querySelector("button:not(:disabled)") || question).focus({ preventScroll: true });
      }
    } else if (!kind && this.dialog) {
      this.giveBack();
    }
    this.dialog = kind;
    // This seat's move: its turn, a drawn card, a stack to answer, or (H-FIVE) a card to give.
    const myMove = v.mode === "play" && (v.model.myMove || v.model.allows("give"));
    if (myMove && !this.wasMyMove && !kind && !typing()) this.focusHand();
    this.wasMyMove = myMove;
  }

  /** The question went: focus goes back where it was (or to the hand) if it was lost. */
  giveBack() {
    const active = document.activeElement;
    const lost = !active || active === document.body || !active.isConnected;
    const back = this.returnTo;
    this.returnTo = null;
    if (!lost) return;
    const again = back?.element?.isConnected ? back.element
      : back?.key ? this.view.root.querySelector(`[data-key="${CSS.escape(back.key)}"]`) : null;
    if (again && !again.disabled && again.getAttribute("aria-disabled") !== "true") again.focus({ preventScroll: true });
    else this.focusHand();
  }
}
