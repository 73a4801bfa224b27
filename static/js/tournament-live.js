// The party screen's live tables: a spectator's socket to each table of the round that plays
// (an ordinary room), its model kept as the table page keeps it, and who leads there now (the
// best match total, then the fewest cards in hand). Sockets close as their tables finish.
import { TableConnection } from "./connection.js";
import { TableModel } from "./model.js";

export class LiveTables {
  constructor(onChange) {
    this.onChange = onChange;
    this.rooms = new Map(); // room code -> {connection, model}
  }

  /** Watch exactly these rooms. */
  follow(codes) {
    const wanted = new Set(codes.filter(Boolean));
    for (const [code, live] of this.rooms) {
      if (!wanted.has(code)) {
        live.connection.close();
        this.rooms.delete(code);
      }
    }
    for (const code of wanted) {
      if (this.rooms.has(code)) continue;
      const model = new TableModel();
      const connection = new TableConnection({
        code, token: null, lastSeq: () => model.seq,
        onFrame: (frame) => this.frame(model, connection, frame),
        onStatus: () => {},
      });
      this.rooms.set(code, { connection, model });
      connection.connect();
    }
  }

  frame(model, connection, frame) {
    if (frame.type === "state" && frame.state) model.applyState(frame);
    else if (frame.type === "event") {
      if (model.applyEvent(frame) === "sync") connection.send({ type: "sync" }).catch(() => {});
    } else return;
    this.onChange();
  }

  /** A room's seats now, the leader first: [{name, cards, score, bot}], or null before a state. */
  standing(code) {
    const state = this.rooms.get(code)?.model.state;
    if (!state?.seats || state.phase === "lobby") return null;
    const better = state.rules?.scoring === "lowest_wins" ? 1 : -1; // P-200: the lowest total leads
    return state.seats.map((seat, i) => ({ name: seat.name || `#${i + 1}`, cards: seat.cards ?? 0, score: seat.score ?? 0 }))
      .sort((a, b) => better * (a.score - b.score) || a.cards - b.cards);
  }

  stop() {
    this.follow([]);
  }
}
