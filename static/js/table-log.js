// The "What happened" panel: each event in words, newest last, and the same words for a screen
// reader (announcer.js). The story so far that a fresh connection gets (`recent`) is written to
// the panel only: it happened before this page was here, so it is neither spoken nor animated.
import { h } from "./dom.js";
import { describe } from "./describe.js";
import { announce } from "./announcer.js";

const LOG_LIMIT = 200;

export class TableLog {
  constructor(list, { onLine } = {}) {
    this.list = list;
    this.onLine = onLine; // told of every new line (the drawer counts the unread ones)
    this.lastSeq = null; // the newest event written (a `recent` never writes one twice)
    this.lastUnoCall = null;
  }

  /** An event of `frame` (seq'd), in words; `quiet` writes without speaking. */
  event(event, seq, model, { quiet = false } = {}) {
    if (typeof seq === "number") {
      if (this.lastSeq !== null && seq <= this.lastSeq) return;
      this.lastSeq = seq;
    }
    // A call made holding two cards is announced again by the play that leaves one: say it once.
    const repeat = event.kind === "uno_called" && this.lastUnoCall === event.seat;
    this.lastUnoCall = event.kind === "uno_called" ? event.seat
      : event.kind === "played" && event.seat === this.lastUnoCall ? this.lastUnoCall : null;
    if (repeat) return;
    const words = describe(event, model.state, model.mySeat);
    if (!words) return;
    // "Your turn" is said at once by the table (assertive); the log line need not say it again.
    const mine = event.kind === "turn" && model.mySeat !== null && event.seat === model.mySeat;
    this.line(words, event.kind, { quiet: quiet || mine });
  }

  /** The `recent` frame: the kept events up to the state just received, oldest first. */
  recent(frame, model) {
    for (const item of frame.events || []) {
      if (item?.type === "event" && item.event) this.event(item.event, item.seq, model, { quiet: true });
    }
  }

  line(words, kind, { quiet = false } = {}) {
    const item = h(`li.log-${kind}`, {}, words);
    this.list.appendChild(item);
    while (this.list.children.length > LOG_LIMIT) this.list.firstChild.remove();
    const scroller = this.list.closest(".log-scroll");
    if (scroller) scroller.scrollTop = scroller.scrollHeight; // the panel, never the page
    if (!quiet) announce(words);
    this.onLine?.();
  }
}
