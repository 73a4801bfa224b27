// The table as this connection knows it: the last `state` view, kept current by applying each
// `event` in seq order. A gap in seq (or an event the client cannot fully model) asks for a sync.
import { canPlay, canJumpIn, parseCard } from "./cards.js";

const DECK_SIZE = { modern: 112, classic: 108, classic_blank: 112 };
// Events that mean "the waited-on seat acted", which closes U-CATCH windows that seat closes.
const ACTION_DRAW_REASONS = new Set(["draw", "timeout", "wild_draw4"]);

export class TableModel {
  constructor() {
    this.state = null;
    this.seq = null;
    this.turnStartedAt = 0; // performance.now() when the current wait began (timer ring)
    this.turnMs = 0; // how long that wait lasts, 0 when no timer runs
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
    this.catchClosers = {};
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
      // deadline_ms is on the server clock: trust it against the server's now when given,
      // against ours when it looks like epoch time, else assume the wait just began.
      const now = typeof state.now_ms === "number" ? state.now_ms
        : state.deadline_ms > 1e12 ? Date.now() : null;
      if (now !== null) return Math.max(0, Math.min(seconds * 1000, state.deadline_ms - now));
    }
    return seconds * 1000;
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
    if (s.pending?.kind === "stack") return stackAnswer(s, card);
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

const HANDLERS = {
  round_started(m, s, e) {
    s.phase = "playing";
    s.round = e.round;
    s.dealer = e.dealer;
    s.direction = 1;
    s.pending = null;
    s.catchable = [];
    s.last_round = null;
    e.hand_counts.forEach((n, i) => Object.assign(m.seat(i), { cards: n, uno: false }));
    if (s.you && e.hand) s.you.hand = [...e.hand];
    m.reveal = null;
    m.precalled = false;
    m.catchClosers = {};
    m.slap = null;
    s.jump_in = false;
    s.silence = null;
    s.places = [];
    s.seats.forEach((seat) => (seat.out = false));
  },
  first_card(m, s, e) {
    const n = s.seats.length;
    const left = (s.dealer + 1) % n;
    s.top = e.card;
    s.color = e.color;
    s.discard_pile = 1;
    s.turn = left;
    if (e.effect === "skip") s.turn = (left + 1) % n;
    else if (e.effect === "draw2") s.turn = (left + 1) % n;
    else if (e.effect === "reverse") {
      s.direction = -1;
      s.turn = s.dealer;
    } else if (e.effect === "choose_color") s.pending = { kind: "choose_color", seat: left };
    m.recountDrawPile();
    m.startTimer(m.timerFromState({ ...s, deadline_ms: null }));
    // H-LAZY and later rules pick the first player differently: confirm with a fresh state.
    return "sync";
  },
  played(m, s, e) {
    m.closeCatchWindowsOf(e.seat);
    m.reveal = null; // a challenged hand is shown until play goes on
    const seat = m.seat(e.seat);
    seat.cards = e.cards_left;
    if (e.cards_left !== 1) seat.uno = false;
    if (e.seat === m.mySeat) {
      m.removeFromHand([e.card]);
      if (e.cards_left !== 1) m.precalled = false;
    }
    s.top = e.card;
    s.color = e.color;
    s.discard_pile = (s.discard_pile || 0) + 1;
    if (s.pending?.kind === "play_drawn") s.pending = null;
    m.lastPlay = { seat: e.seat, card: e.card };
    m.justPlayedOne = e.cards_left === 1 ? e.seat : null;
    s.jump_in = Boolean(s.rules?.jump_in);
  },
  uno_called(m, s, e) {
    m.seat(e.seat).uno = true;
    if (e.seat === m.mySeat && m.hand.length === 2) m.precalled = true;
    m.dropCatchable(e.seat);
  },
  drew(m, s, e) {
    if (e.seat === m.waitingOn && ACTION_DRAW_REASONS.has(e.reason)) m.closeCatchWindowsOf(e.seat);
    const seat = m.seat(e.seat);
    seat.cards = e.cards_left;
    if (e.cards_left > 1) seat.uno = false;
    s.draw_pile = Math.max(0, (s.draw_pile || 0) - e.count);
    if (e.seat === m.mySeat && Array.isArray(e.cards) && s.you) {
      s.you.hand.push(...e.cards);
      m.lastDrawn = e.cards;
      if (e.cards_left > 1) m.precalled = false;
    }
  },
  kept(m, s, e) {
    m.closeCatchWindowsOf(e.seat);
    s.pending = null;
  },
  turn(m, s, e) {
    s.turn = e.seat;
    s.pending = e.pending ? { ...e.pending } : null;
    if (s.pending?.kind === "challenge") {
      s.pending.amount = s.pending.amount ?? 4;
      s.pending.offender = s.pending.offender ?? m.lastPlay?.seat;
    }
    // Stacks, exchanges and stacked challenges carry more than this event says: ask for it.
    const needsDetail = s.pending && (["stack", "exchange"].includes(s.pending.kind)
      || (s.pending.kind === "challenge" && s.rules?.stacking && s.rules.stacking !== "off"));
    if (s.pending?.kind === "play_drawn" && s.pending.seat === m.mySeat) {
      s.pending.card = s.pending.card ?? m.lastDrawn[m.lastDrawn.length - 1];
    }
    const one = m.justPlayedOne;
    if (one !== null && m.seat(one).cards === 1 && !m.seat(one).uno) {
      s.catchable = [...new Set([...(s.catchable || []), one])].sort((a, b) => a - b);
      m.catchClosers[one] = s.pending ? s.pending.seat : s.turn;
    }
    m.justPlayedOne = null;
    m.startTimer((s.rules?.turn_seconds ?? 0) * 1000);
    return needsDetail ? "sync" : "ok";
  },
  skipped() {},
  reversed(m, s, e) {
    s.direction = e.direction;
  },
  color_chosen(m, s, e) {
    s.color = e.color;
    if (s.pending?.kind === "choose_color") s.pending = null;
  },
  challenged(m, s, e) {
    m.closeCatchWindowsOf(e.seat);
    s.pending = null;
    if (Array.isArray(e.hand)) m.reveal = { offender: e.offender, hand: e.hand };
    // C-RETURN takes the Wild Draw Four back: the card under it is not known here.
    if (e.guilty && s.rules?.challenge === "return") return "sync";
    return "ok";
  },
  caught(m, s, e) {
    m.dropCatchable(e.seat);
  },
  false_catch() {},
  reshuffled(m, s, e) {
    s.draw_pile = e.draw_pile;
    s.discard_pile = 1;
  },
  hands_shuffled: handsMoved,
  hands_passed: handsMoved,
  hands_swapped: handsMoved,
  discarded(m, s, e) {
    const seat = m.seat(e.seat);
    seat.cards = Math.max(0, seat.cards - e.cards.length);
    if (e.seat === m.mySeat) m.removeFromHand(e.cards);
    s.discard_pile = (s.discard_pile || 0) + e.cards.length;
  },
  custom_effect() {},
  chat() {},
  timed_out() {},
  round_over(m, s, e) {
    s.phase = "round_over";
    s.last_round = { ...e };
    s.pending = null;
    s.catchable = [];
    s.deadline_ms = null;
    e.scores.forEach((score, i) => (m.seat(i).score = score));
    m.seat(e.winner).round_wins = (m.seat(e.winner).round_wins || 0) + 1;
    m.catchClosers = {};
    m.startTimer(0);
  },
  match_over(m, s, e) {
    s.phase = "match_over";
    s.result = { ...e };
  },
  // House rules (RULES.md section 8).
  jumped_in() {}, // the "played" event that follows does the work
  misplay() {}, // the penalty "drew" follows
  silence(m, s, e) {
    s.silence = e.active ? { by: e.by ?? null } : null;
  },
  slap_started(m, s, e) {
    m.slap = { seat: e.seat, waiting: [...e.waiting] };
  },
  slapped(m, s, e) {
    if (m.slap) m.slap.waiting = m.slap.waiting.filter((seat) => seat !== e.seat);
  },
  slap_over(m) {
    m.slap = null;
    return "sync"; // the pending decision the slap stood in front of
  },
  exchange_started() {
    return "sync";
  },
  gave(m, s, e) {
    if (s.pending?.kind === "exchange") s.pending.waiting = (s.pending.waiting || []).filter((x) => x !== e.seat);
  },
  exchanged() {
    return "sync"; // two hands changed by one card each
  },
  refilled() {
    return "sync";
  },
  went_out(m, s, e) {
    m.seat(e.seat).out = true;
    s.places = [...(s.places || []), e.seat];
  },
};

/** H-STACK / H-DEFLECT / H-REVDEFLECT: may `card` answer the pending draw (turns.stack_answer)? */
export function stackAnswer(s, card) {
  const rules = s.rules || {};
  const c = parseCard(card);
  const top = s.top ? parseCard(s.top) : null;
  if (c.rank === "R" && !c.wild && rules.reverse_deflects) return c.color === s.color;
  const topRank = top ? top.rank : "";
  const draw4 = card === "W+4";
  if (rules.stacking === "mixed") return c.rank === "+2" || draw4;
  if (rules.stacking === "progressive") return c.rank === topRank && (c.rank === "+2" || draw4);
  if (rules.stacking === "deflect" && c.rank === "+2") return topRank !== "W+4" || c.color === s.color;
  return false;
}

// Room events (app/rooms): the roster, presence, host, rules and the start of a match.
function mergeSeats(m, s, e) {
  if (!Array.isArray(e.seats)) return;
  s.seats = e.seats.map((entry, i) => ({ cards: 0, uno: false, score: 0, round_wins: 0, out: false,
    ...(s.seats[i] || {}), ...entry }));
  if ("host" in e) s.host = e.host;
}

Object.assign(HANDLERS, {
  joined(m, s, e) {
    mergeSeats(m, s, e);
    return "sync"; // a join between matches takes the room back to the lobby
  },
  left(m, s, e) {
    mergeSeats(m, s, e);
    if (typeof e.you === "number" && s.you) s.you.seat = e.you; // the seats after it moved down
    return "sync";
  },
  replaced(m, s, e) {
    mergeSeats(m, s, e);
  },
  presence(m, s, e) {
    m.seat(e.seat).connected = e.connected;
  },
  host_changed(m, s, e) {
    s.host = e.host;
  },
  rules_changed(m, s, e) {
    s.rules = e.rules;
    s.preset = e.preset;
  },
  match_started(m, s, e) {
    mergeSeats(m, s, e);
    s.phase = "playing";
    s.match = e.match;
    if (e.rules) s.rules = e.rules;
    s.result = null;
    s.last_round = null;
    s.seats.forEach((seat) => Object.assign(seat, { score: 0, round_wins: 0 }));
  },
});

function handsMoved(m, s, e) {
  e.hand_counts.forEach((n, i) => Object.assign(m.seat(i), { cards: n, uno: false }));
  if (s.you && e.hand) s.you.hand = [...e.hand];
  s.catchable = [];
  m.catchClosers = {};
  m.precalled = false;
}
