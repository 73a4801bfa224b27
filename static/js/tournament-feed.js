// A tournament's live view (PROTOCOL.md "Tournaments"): one socket per token this browser holds
// for it (the host's, a participant's; none to watch), each reconnecting as connection.js does,
// merged into one view whose `you` says who this browser is there.
import { TableConnection } from "./connection.js";
import { tournamentHosts, tournamentEntries } from "./api.js";
import { withEvent } from "./tournament-parts.js";

export class TournamentFeed {
  /** handlers: onChange(view), onEvent(event, view), onStatus(status, detail), onError(frame). */
  constructor(code, handlers) {
    this.code = code;
    this.handlers = handlers;
    this.view = null;
    this.you = { participant: null, host: false, table: null };
    this.sockets = {};
    this.news = []; // events told after the state that follows them (a new round's tables)
  }

  /** Connect as the tokens held now; again after one is added or dropped (joined, refused). */
  start() {
    const host = tournamentHosts.get(this.code)?.token ?? null;
    const entry = tournamentEntries.get(this.code)?.token ?? null;
    const wanted = {};
    if (entry) wanted.entry = entry;
    if (host) wanted.host = host;
    if (!entry && !host) wanted.watch = null;
    for (const [role, socket] of Object.entries(this.sockets)) {
      if (!(role in wanted) || wanted[role] !== socket.token) {
        socket.close();
        delete this.sockets[role];
      }
    }
    for (const [role, token] of Object.entries(wanted)) {
      if (this.sockets[role]) continue;
      const socket = new TableConnection({
        code: this.code, token, path: "tournaments",
        // A socket this feed let go of may still say something on its way out: not heard.
        onFrame: (frame) => { if (this.sockets[role] === socket) this.receive(role, frame); },
        onStatus: (status, detail) => { if (this.sockets[role] === socket) this.status(role, status, detail); },
      });
      this.sockets[role] = socket;
      socket.connect();
    }
    this.primary = entry ? "entry" : host ? "host" : "watch";
  }

  receive(role, frame) {
    if (frame.type === "state" && frame.state) {
      const you = frame.state.you || {};
      if (role === "host") this.you = { ...this.you, host: you.host !== false };
      else if (role === "entry") this.you = { ...this.you, participant: you.participant ?? null, table: you.table ?? null };
      else this.you = { participant: null, host: false, table: null };
      if (role === this.primary || !this.view) this.view = frame.state;
      this.handlers.onChange(this.current());
      if (role === this.primary) for (const event of this.news.splice(0)) this.handlers.onEvent?.(event, this.current());
    } else if (frame.type === "event" && frame.event && role === this.primary) {
      // The server sends the new state right after a change's events: they are told with it.
      this.view = withEvent(this.view, frame.event);
      this.news.push(frame.event);
      this.handlers.onChange(this.current());
    } else if (frame.type === "error") {
      this.handlers.onError?.(frame, role);
    }
  }

  status(role, status, detail) {
    if (status === "closed" && [4401, 4403].includes(detail?.code)) {
      // The token no longer opens the tournament (removed, or a stale one): keep watching.
      if (role === "entry") tournamentEntries.forget(this.code);
      if (role === "host") tournamentHosts.forget(this.code);
      delete this.sockets[role];
      if (role === "entry") this.you = { ...this.you, participant: null, table: null };
      if (role === "host") this.you = { ...this.you, host: false };
      this.handlers.onStatus?.(status, detail, role);
      this.start();
      return;
    }
    if (role === this.primary) this.handlers.onStatus?.(status, detail, role);
  }

  current() {
    return this.view ? { ...this.view, you: this.you } : null;
  }

  /** A host command (start, next_round, remove) or the participant's withdraw. */
  send(command) {
    const role = command.type === "withdraw" ? "entry" : "host";
    return Boolean(this.sockets[role]?.post(command));
  }

  /** Drop every socket as a flaky network would (the browser tests' reconnect). */
  dropForTest() {
    for (const socket of Object.values(this.sockets)) socket.dropForTest();
  }

  stop() {
    for (const socket of Object.values(this.sockets)) socket.close();
    this.sockets = {};
  }
}
