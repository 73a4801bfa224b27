// How each event changes the model's state (engine events, house rules, room events). A handler
// returns "sync" when the event does not carry enough to update the view exactly.

export const HANDLERS = {
  round_started(m, s, e) {
    s.phase = "playing";
    s.round = e.round;
    s.dealer = e.dealer;
    s.direction = 1;
    s.pending = null;
    s.last_round = null;
    if (Array.isArray(e.order)) s.order = [...e.order]; // H-SHUFFLESEATS: this round's order
    s.clock_ends_ms = e.clock_ends_ms ?? null; // H-BLITZ
    const gone = new Set(e.eliminated || []); // H-ELIM
    e.hand_counts.forEach((n, i) => Object.assign(m.seat(i), { cards: n, uno: false, hand: null,
      eliminated: gone.has(i) }));
    if (s.you && e.hand) s.you.hand = [...e.hand];
    m.reveal = null;
    m.slap = null;
    s.jump_in = false;
    s.silence = null;
    s.places = [];
    s.seats.forEach((seat) => (seat.out = gone.has(seat.seat)));
  },
  first_card(m, s, e) {
    s.top = e.card;
    s.color = e.color;
    s.discard_pile = 1;
    if (e.effect === "reverse") s.direction = -1; // S-FIRST: no `reversed` event says so
    m.recountDrawPile();
    // Who starts depends on the card, the order of play and the rules: the `turn` event that
    // ends the deal says it, and a fresh state confirms the rest.
    return "sync";
  },
  played(m, s, e) {
    m.reveal = null; // a challenged hand is shown until play goes on
    const cards = [e.card, ...(e.more || [])]; // H-MULTI: several cards in one play
    const seat = m.seat(e.seat);
    seat.cards = e.cards_left;
    if (e.cards_left !== 1) seat.uno = false;
    if (e.seat === m.mySeat) m.removeFromHand(cards);
    s.top = cards[cards.length - 1];
    s.color = e.color;
    s.discard_pile = (s.discard_pile || 0) + cards.length;
    if (s.pending?.kind === "play_drawn") s.pending = null;
    m.lastPlay = { seat: e.seat, card: e.card };
    s.jump_in = Boolean(s.rules?.jump_in); // only lets an H-NOHINTS player try: the server judges
  },
  uno_called(m, s, e) {
    m.seat(e.seat).uno = true;
  },
  drew(m, s, e) {
    const seat = m.seat(e.seat);
    seat.cards = e.cards_left;
    if (e.cards_left > 1) seat.uno = false;
    s.draw_pile = Math.max(0, (s.draw_pile || 0) - e.count);
    if (e.seat === m.mySeat && Array.isArray(e.cards) && s.you) {
      s.you.hand.push(...e.cards);
      m.lastDrawn = e.cards;
    }
  },
  kept(m, s) {
    s.pending = null;
  },
  passed() {}, // H-HANDLIMIT: the `turn` that follows moves play on
  turn(m, s, e) {
    s.turn = e.seat;
    s.pending = e.pending ? { ...e.pending } : null; // the public pending, as in the state view
    if (s.pending?.kind === "play_drawn" && s.pending.seat === m.mySeat) {
      s.pending.card = s.pending.card ?? m.lastDrawn[m.lastDrawn.length - 1];
    }
    m.startTimer((s.rules?.turn_seconds ?? 0) * 1000);
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
    s.pending = null;
    if (Array.isArray(e.hand)) m.reveal = { offender: e.offender, hand: e.hand };
    // C-RETURN takes the Wild Draw Four back: the card under it is not known here.
    if (e.guilty && s.rules?.challenge === "return") return "sync";
    return "ok";
  },
  caught() {},
  catch_open() {}, // O-WINDOW: its frame's "legal" now lists the catch
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
    s.clock_ends_ms = null;
    e.scores.forEach((score, i) => (m.seat(i).score = score));
    s.seats.forEach((seat) => (seat.hand = null)); // every hand is in last_round now
    const teams = e.teams && e.winning_teams ? e.winning_teams.flatMap((team) => e.teams[team]) : null;
    for (const seat of teams || e.winners || [e.winner]) m.seat(seat).round_wins = (m.seat(seat).round_wins || 0) + 1;
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
  // Section 8b (rules from online tables).
  bomb() {}, // H-BOMB: a `drew` (reason "bomb") per other player follows
  revealed(m, s, e) {
    m.seat(e.seat).hand = Array.isArray(e.hand) ? [...e.hand] : null; // H-REVEAL
  },
  clock_over() {}, // H-BLITZ: round_over follows
  eliminated(m, s, e) {
    Object.assign(m.seat(e.seat), { eliminated: true, out: true }); // H-ELIM
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
    s.seats.forEach((seat) => Object.assign(seat, { score: 0, round_wins: 0, eliminated: false, hand: null }));
  },
  seats_freed(m, s, e) {
    // Before a rematch: the seats of players who left are freed, later seats move down.
    mergeSeats(m, s, e);
    if (typeof e.you === "number" && s.you) s.you.seat = e.you;
    return "sync";
  },
  spectators(m, s, e) {
    s.spectators = e.spectators;
  },
  queue(m, s, e) {
    s.queue = e.queue; // O-QUEUE; a spectator's own place comes with the next state
    if (s.you && typeof s.you.spectator === "number") return "sync";
  },
  away(m, s, e) {
    m.seat(e.seat).away = e.away; // O-IDLE
  },
  reaction() {}, // floats over the table (the view shows it), changes nothing
});

function handsMoved(m, s, e) {
  e.hand_counts.forEach((n, i) => Object.assign(m.seat(i), { cards: n, uno: false }));
  if (s.you && e.hand) s.you.hand = [...e.hand];
}
