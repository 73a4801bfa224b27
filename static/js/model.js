// The table as this connection knows it: the last `state` view, kept current by applying each
// `event` in seq order. A gap in seq (or an event the client cannot fully model) asks for a sync.
// What this seat may do comes from the server alone (O-LEGAL): `state.you.legal`, replaced by the
// `"legal"` list an event frame carries whenever it changed. The client never guesses a rule.
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
    this.slap = null; // U-CENTER: {seat, waiting} while everyone must slap
  }

  /** A full `state` frame replaces everything. */
  applyState(frame) {
    const state = frame.state;
    this.state = state;
    this.seq = typeof frame.seq === "number" ? frame.seq : (state.seq ?? this.seq);
    // The server's clock as of this frame: deadlines are on it, not on ours (which may be off).
    if (typeof state.now_ms === "number") this.clockOffset = state.now_ms - Date.now();
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

  /** H-BLITZ: milliseconds left on the round's clock, or null when no clock runs. */
  roundClockLeft() {
    const ends = this.state?.clock_ends_ms;
    if (typeof ends !== "number" || this.state.phase !== "playing") return null;
    return Math.max(0, ends - (this.serverNow() ?? Date.now()));
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
    const result = handler ? handler(this, this.state, frame.event) || "ok" : "sync";
    // O-LEGAL: the frame after which this seat's moves changed carries the new list.
    if (Array.isArray(frame.legal) && this.state.you) this.state.you.legal = frame.legal;
    return result;
  }

  // --- what the views ask ---

  get mySeat() {
    // A named spectator's `you` has no seat (O-QUEUE): null, as for an anonymous one.
    const seat = this.state?.you?.seat;
    return typeof seat === "number" ? seat : null;
  }

  get hand() {
    return this.state?.you?.hand || [];
  }

  /** O-LEGAL: the commands this seat may send now, as the server listed them. */
  get legal() {
    return this.state?.you?.legal || [];
  }

  /** The server lists a command of this type (`draw`, `keep`, `pass`, `uno`, `accept`, ...). */
  allows(type) {
    return this.legal.some((command) => command.type === type);
  }

  /** H-NOHINTS: the server lists no plays; the player finds them alone. */
  get noHints() {
    return Boolean(this.state?.rules?.no_hints);
  }

  /** The server lists a play of this card (on this seat's move, or as a jump-in). */
  isPlayable(card) {
    return this.legal.some((command) => command.type === "play" && command.card === card);
  }

  /** A listed play while the table waits for someone else: a jump-in (H-JUMPIN). */
  isJumpIn(card) {
    return this.isPlayable(card) && !this.waitingSeats.includes(this.mySeat);
  }

  /** H-MULTI: the cards the server says may follow `card` in one play (any, in any order). */
  followers(card) {
    const out = [];
    for (const command of this.legal) {
      if (command.type === "play" && command.card === card) out.push(...(command.more || []));
    }
    return out;
  }

  /** H-NOHINTS: a card may be tried whenever this seat might play (the server judges it). */
  mayTry() {
    const s = this.state;
    if (!this.noHints || !s || s.phase !== "playing" || this.mySeat === null || this.slap) return false;
    return this.myMove || Boolean(s.rules?.jump_in && s.jump_in);
  }

  /** H-FIVE: the cards the server lets this seat give. */
  mayGive(card) {
    return this.legal.some((command) => command.type === "give" && command.card === card);
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

  /** The table waits for this seat's play: its turn, its drawn card, or its answer to a stack. */
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

  /** Seats this seat may catch now (U-CATCH), as the server listed them. */
  catchableSeats() {
    return this.legal.filter((command) => command.type === "catch").map((command) => command.target);
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

  recountDrawPile() {
    const s = this.state;
    const deck = DECK_SIZE[s.rules?.deck] ?? 112;
    const inHands = s.seats.reduce((sum, seat) => sum + (seat.cards || 0), 0);
    s.draw_pile = Math.max(0, deck - inHands - (s.discard_pile || 1));
  }
}
