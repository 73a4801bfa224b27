// The table as this connection knows it: the last `state` view, kept current by applying each
// `event` in seq order. A gap in seq (or an event the client cannot fully model) asks for a sync.
import { canPlay, canJumpIn, stackAnswer } from "./cards.js";
import { HANDLERS } from "./model-events.js";

const DECK_SIZE = { modern: 112, classic: 108, classic_blank: 112 };

export class TableModel {
  constructor() {
    this.state = null;
    this.seq = null;
    this.turnStartedAt = 0; // performance.now() when the current wait began (timer ring)
    this.turnMs = 0; // how long that wait lasts, 0 when no timer runs
    this.clockOffset = null; // server clock minus ours (ms), from the last state's now_ms
    this.reveal = null; // {offender, hand}: a challenged hand shown to this seat alone
    this.lastPlay = null; // {seat, card}: for a Wild Draw Four's offender
    this.lastDrawn = []; // cards this seat drew last (the play_drawn card)
    this.justPlayedOne = null; // seat that just played down to one card without UNO
    this.catchClosers = {}; // catchable seat -> the seat whose action closes the window
    this.precalled = false; // this seat called UNO holding two cards on its turn
    this.slap = null; // U-CENTER: {seat, waiting} while everyone must slap
  }

  /** A full `state` frame replaces everything. */
  applyState(frame) {
    const state = frame.state;
    this.state = state;
    this.seq = typeof frame.seq === "number" ? frame.seq : (state.seq ?? this.seq);
    // The server's clock as of this frame: deadlines are on it, not on ours (which may be off).
    if (typeof state.now_ms === "number") this.clockOffset = state.now_ms - Date.now();
    // A catch window closes when the seat the table waits for acts (O-WINDOW).
    this.catchClosers = Object.fromEntries((state.catchable || []).map((seat) => [seat, this.waitingOn]));
    this.justPlayedOne = null;
    if (state.phase !== "playing") this.reveal = null;
    this.slap = state.pending?.kind === "slap"
      ? { seat: state.pending.seat, waiting: [...(state.pending.waiting || [])] } : null;
    this.startTimer(this.timerFromState(state));
  }

  timerFromState(state) {
    const seconds = state.rules?.turn_seconds ?? 0;
    if (state.phase !== "playing" || !seconds) return 0;
    if (typeof state.deadline_ms === "number") {
      // deadline_ms is on the server's clock: compare it with the server's now (our clock plus
      // the offset the last state's now_ms gave); a server that never sent now_ms gets ours when
      // the deadline looks like epoch time, else the wait is taken to have just begun.
      const now = this.serverNow() ?? (state.deadline_ms > 1e12 ? Date.now() : null);
      if (now !== null) return Math.max(0, Math.min(seconds * 1000, state.deadline_ms - now));
    }
    return seconds * 1000;
  }

  /** The server's clock now (epoch ms), or null before any state carried now_ms. */
  serverNow() {
    return this.clockOffset === null ? null : Date.now() + this.clockOffset;
  }

  startTimer(ms) {
    this.turnStartedAt = performance.now();
    this.turnMs = ms;
  }

  /**
   * Apply an `event` frame. Returns "ok", "duplicate" (already applied), or "sync" (a gap or an
   * event the client cannot model: ask the server for a fresh state).
   */
  applyEvent(frame) {
    if (!this.state) return "sync";
    if (typeof frame.seq === "number" && this.seq !== null) {
      if (frame.seq <= this.seq) return "duplicate";
      if (frame.seq > this.seq + 1) return "sync";
    }
    if (typeof frame.seq === "number") this.seq = frame.seq;
    const handler = HANDLERS[frame.event.kind];
    if (!handler) return "sync";
    return handler(this, this.state, frame.event) || "ok";
  }

  // --- what the views ask ---

  get mySeat() {
    return this.state?.you ? this.state.you.seat : null;
  }

  get hand() {
    return this.state?.you?.hand || [];
  }

  get waitingOn() {
    const s = this.state;
    if (!s || s.phase !== "playing") return null;
    return s.pending ? s.pending.seat : s.turn;
  }

  /** Every seat the table waits for now (a slap or an exchange waits for several). */
  get waitingSeats() {
    const s = this.state;
    if (!s || s.phase !== "playing") return [];
    if (this.slap) return this.slap.waiting;
    if (s.pending?.kind === "exchange" && Array.isArray(s.pending.waiting)) return s.pending.waiting;
    return [this.waitingOn];
  }

  /** It is this seat's move: its turn with nothing pending, or its drawn card to play or keep. */
  get myMove() {
    const s = this.state;
    if (!s || s.phase !== "playing" || this.mySeat === null || this.slap) return false;
    if (s.pending) return s.pending.seat === this.mySeat && ["play_drawn", "stack"].includes(s.pending.kind);
    return s.turn === this.mySeat;
  }

  get drawnCard() {
    const p = this.state?.pending;
    if (!p || p.kind !== "play_drawn" || p.seat !== this.mySeat) return null;
    return p.card || this.lastDrawn[this.lastDrawn.length - 1] || null;
  }

  isPlayable(card) {
    const s = this.state;
    if (!this.myMove) return false;
    if (s.pending?.kind === "play_drawn") return card === this.drawnCard;
    if (s.pending?.kind === "stack") return stackAnswer(card, s.top, s.color, s.rules || {});
    return canPlay(card, s.top, s.color);
  }

  /** H-JUMPIN: when the table allows it now (a played top card), the identical card. */
  canJumpIn(card) {
    const s = this.state;
    if (!s?.rules?.jump_in || !s.jump_in || s.phase !== "playing" || this.mySeat === null) return false;
    if (this.slap || s.seats[this.mySeat]?.out) return false;
    if (s.pending && !["play_drawn", "stack"].includes(s.pending.kind)) return false;
    return canJumpIn(card, s.top);
  }

  /** H-FIVE: this seat still has to choose the card it gives. */
  get mustGive() {
    const p = this.state?.pending;
    return p?.kind === "exchange" && (p.waiting || []).includes(this.mySeat);
  }

  get mustSlap() {
    return Boolean(this.slap && this.slap.waiting.includes(this.mySeat));
  }

  get canCallUno() {
    const s = this.state;
    if (!s || s.phase !== "playing" || this.mySeat === null) return false;
    const seat = s.seats[this.mySeat];
    if (this.hand.length === 1) return !seat.uno;
    return this.hand.length === 2 && this.myMove && !this.precalled;
  }

  catchableSeats() {
    const s = this.state;
    if (!s || this.mySeat === null || s.phase !== "playing") return [];
    return (s.catchable || []).filter((seat) => seat !== this.mySeat);
  }

  // --- helpers for the handlers ---

  seat(n) {
    return this.state.seats[n] || (this.state.seats[n] = { seat: n, cards: 0 });
  }

  removeFromHand(cards) {
    const hand = this.state.you?.hand;
    if (!hand) return;
    for (const card of cards) {
      const at = hand.indexOf(card);
      if (at >= 0) hand.splice(at, 1);
    }
  }

  closeCatchWindowsOf(actor) {
    const s = this.state;
    for (const [target, closer] of Object.entries(this.catchClosers)) {
      if (closer === actor) {
        delete this.catchClosers[target];
        s.catchable = (s.catchable || []).filter((seat) => seat !== Number(target));
      }
    }
  }

  dropCatchable(seat) {
    const s = this.state;
    s.catchable = (s.catchable || []).filter((x) => x !== seat);
    delete this.catchClosers[seat];
  }

  recountDrawPile() {
    const s = this.state;
    const deck = DECK_SIZE[s.rules?.deck] ?? 112;
    const inHands = s.seats.reduce((sum, seat) => sum + (seat.cards || 0), 0);
    s.draw_pile = Math.max(0, deck - inHands - (s.discard_pile || 1));
  }
}
