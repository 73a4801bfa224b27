// One WebSocket per table (or per tournament: `path: "tournaments"`): connects, resumes with
// `since` after a drop, matches acks and errors to the commands that asked for them, and never
// reconnects after a close that means "stop".

import { FINAL_CLOSE_CODES } from "./codes.js";

// After a close in FINAL_CLOSE_CODES (app/codes.py: bad query or token, kicked, unknown room,
// room closed, too many sockets or spectators) a retry cannot help. Others (1012 reload, 1013
// try later, 4408 too slow, 4429 flooding, drops) reconnect and resume.
const RETRY_DELAYS_MS = [300, 1000, 2000, 4000, 8000];

export class TableConnection {
  /**
   * handlers: onFrame(frame), onStatus(status, detail) with status one of
   * "connecting" | "open" | "reconnecting" | "closed".
   * lastSeq(): the last seq the model holds (for `since`), or null.
   */
  constructor({ code, token, lastSeq = () => null, onFrame, onStatus, path = "rooms" }) {
    this.code = code;
    this.token = token;
    this.lastSeq = lastSeq;
    this.path = path;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.socket = null;
    this.attempt = 0;
    this.nextId = 1;
    this.waiting = new Map();
    this.stopped = false;
    this.retryTimer = null;
  }

  url() {
    const params = new URLSearchParams();
    if (this.token) params.set("token", this.token);
    const since = this.lastSeq();
    if (since !== null && since !== undefined) params.set("since", String(since));
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const query = params.toString();
    return `${scheme}//${location.host}/ws/${this.path}/${encodeURIComponent(this.code)}${query ? "?" + query : ""}`;
  }

  connect() {
    this.stopped = false;
    this.onStatus(this.attempt ? "reconnecting" : "connecting");
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.attempt = 0;
      this.onStatus("open");
    });
    socket.addEventListener("message", (message) => this.receive(message.data));
    socket.addEventListener("close", (event) => this.closed(socket, event));
  }

  receive(data) {
    let frame;
    try {
      frame = JSON.parse(data);
    } catch {
      return; // not ours to guess at; the server only sends JSON
    }
    if (frame.type === "pong" && frame.id && this.waiting.has(frame.id)) frame = { ...frame, type: "ack" };
    if ((frame.type === "ack" || frame.type === "error") && frame.id && this.waiting.has(frame.id)) {
      const { resolve, reject } = this.waiting.get(frame.id);
      this.waiting.delete(frame.id);
      if (frame.type === "ack") resolve(frame);
      else reject(frame);
    }
    this.onFrame(frame);
  }

  closed(socket, event) {
    if (socket !== this.socket) return;
    this.socket = null;
    for (const { reject } of this.waiting.values()) reject({ code: "network", message: "" });
    this.waiting.clear();
    if (this.stopped) return;
    if (FINAL_CLOSE_CODES.has(event.code)) {
      this.stopped = true;
      this.onStatus("closed", { code: event.code, reason: event.reason });
      return;
    }
    const delay = RETRY_DELAYS_MS[Math.min(this.attempt, RETRY_DELAYS_MS.length - 1)];
    this.attempt += 1;
    this.onStatus("reconnecting", { code: event.code, reason: event.reason });
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Send a command; resolves on its ack, rejects with the error frame. */
  send(message) {
    const id = `c${this.nextId++}`;
    return new Promise((resolve, reject) => {
      if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
        reject({ code: "network", message: "" });
        return;
      }
      this.waiting.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ ...message, id }));
    });
  }

  /** Send a command no ack answers (a tournament's); false when the socket is not open. */
  post(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Drop the socket as a flaky network would (used to resume with `since`). */
  dropForTest() {
    if (this.socket) this.socket.close(4000, "test drop");
  }

  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    if (this.socket) this.socket.close(1000, "bye");
    this.socket = null;
  }
}
