// How each event changes the model's state (engine events, house rules, room events). A handler
// returns "sync" when the event does not carry enough to update the view exactly.

// Draw reasons that mean "the waited-on seat acted", which closes the U-CATCH windows it closes.
const ACTION_DRAW_REASONS = new Set(["draw", "timeout", "wild_draw4"]);

export const HANDLERS = {
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
    m.startTimer((s.rules?.slap_seconds ?? 3) * 1000);
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
