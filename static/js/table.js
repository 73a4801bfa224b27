// The table page: connects, keeps the model, renders, and turns clicks into commands.
import { h, replaceChildren } from "./dom.js";
import { t, onLangChange } from "./i18n.js";
import { seats as seatStore } from "./api.js";
import { mountJoinPrompt } from "./join.js";
import { TableConnection } from "./connection.js";
import { TableModel } from "./model.js";
import { describe } from "./describe.js";
import { parseCard } from "./cards.js";
import { seatOrder, seatTile, centerArea } from "./table-seats.js";
import { handArea, promptArea, resultsPanel, lobbyPanel } from "./table-panels.js";
import { errorText } from "./errors.js";
import { tableBar, updateTimers } from "./table-bar.js";

const LOG_LIMIT = 200;

/** Mount the table for room `code`; mode "play" (your seat), "watch" or "tv". Returns unmount. */
export function mountTable(root, { code, mode }) {
  const seat = mode === "play" ? seatStore.get(code) : null;
  if (mode === "play" && !seat) return mountJoinPrompt(root, code);
  const view = new TableView(root, code, mode, seat ? seat.token : null);
  view.start();
  return () => view.stop();
}

class TableView {
  constructor(root, code, mode, token) {
    this.root = root;
    this.code = code;
    this.mode = mode;
    this.model = new TableModel();
    this.ui = { code, mode, pickColorFor: null, pickTargetFor: null, copied: false };
    this.status = "connecting";
    this.closedCode = null;
    this.syncing = false;
    this.logEntries = [];
    this.build();
    this.connection = new TableConnection({
      code, token,
      lastSeq: () => this.model.seq,
      onFrame: (frame) => this.onFrame(frame),
      onStatus: (status, detail) => this.onStatus(status, detail),
    });
    window.unoTable = this; // lets the browser tests drop the socket as a bad network would
  }

  build() {
    const tv = this.mode === "tv";
    this.bar = h("header.table-bar");
    this.notice = h("div.notice", { role: "alert", "aria-live": "assertive" });
    this.seatsEl = h("ul.seats", { "aria-label": t("room.seats") });
    this.centerEl = h("div.center-slot");
    this.promptEl = h("div.prompt-slot");
    this.panelEl = h("div.panel-slot");
    this.handEl = h("div.hand-slot");
    this.logList = h("ol.log-list");
    this.chatInput = h("input", { type: "text", maxlength: 300, "aria-label": t("chat.label"), autocomplete: "off" });
    const chat = h("form.chat", {
      onsubmit: (event) => {
        event.preventDefault();
        const text = this.chatInput.value.trim();
        if (!text) return;
        this.send({ type: "chat", text }).then(() => (this.chatInput.value = ""));
      },
    }, this.chatInput, h("button.secondary", { type: "submit" }, t("chat.send")));
    this.logTitle = h("h2#log-title", {}, t("log.title"));
    this.chatButton = chat.querySelector("button");
    this.logArea = h("aside.log-area", { "aria-labelledby": "log-title" },
      this.logTitle,
      h("div.log-scroll", { "aria-live": "polite", "aria-relevant": "additions", role: "log" }, this.logList),
      this.mode === "play" ? chat : null);
    this.root.replaceChildren(h(`section.table-page${tv ? ".tv" : ""}`, {},
      this.bar, this.notice,
      h("div.table-layout", {},
        h("div.table-main", {},
          h("div.board", {}, this.seatsEl, this.centerEl),
          this.promptEl, this.panelEl, this.handEl),
        this.logArea)));
    this.langOff = onLangChange(() => this.render());
    this.keyHandler = (event) => this.onKey(event);
    if (this.mode === "play") document.addEventListener("keydown", this.keyHandler);
  }

  start() {
    this.connection.connect();
    this.ticker = setInterval(() => this.tick(), 200);
    // A quiet table still sends a frame now and then, so idle proxies keep the socket open.
    this.keepalive = setInterval(() => this.connection.send({ type: "ping" }).catch(() => {}), 25000);
    this.render();
  }

  stop() {
    clearInterval(this.ticker);
    clearInterval(this.keepalive);
    document.removeEventListener("keydown", this.keyHandler);
    this.langOff();
    this.connection.close();
    if (window.unoTable === this) window.unoTable = null;
  }

  // --- frames ---

  onFrame(frame) {
    if (frame.type === "state") {
      this.syncing = false;
      this.model.applyState(frame);
      this.ui.pickColorFor = null;
      this.ui.pickTargetFor = null;
    } else if (frame.type === "event") {
      const before = this.model.state;
      const result = this.model.applyEvent(frame);
      if (result === "duplicate") return;
      if (result !== "sync" || before) this.addLog(frame.event);
      if (result === "sync") this.requestSync();
    } else if (frame.type === "error") {
      this.showError(frame);
      return;
    } else {
      return;
    }
    this.render();
  }

  onStatus(status, detail) {
    this.status = status;
    if (status === "closed") {
      this.closedCode = detail?.code ?? null;
      if ([4401, 4403].includes(this.closedCode)) seatStore.forget(this.code);
    }
    if (status === "open" && this.model.state) this.requestSync();
    this.render();
  }

  requestSync() {
    if (this.syncing) return;
    this.syncing = true;
    this.connection.send({ type: "sync" }).catch(() => (this.syncing = false));
  }

  addLog(event) {
    // A call made holding two cards is announced again by the play that leaves one: say it once.
    const repeat = event.kind === "uno_called" && this.lastUnoCall === event.seat;
    this.lastUnoCall = event.kind === "uno_called" ? event.seat
      : event.kind === "played" && event.seat === this.lastUnoCall ? this.lastUnoCall : null;
    if (repeat) return;
    const words = describe(event, this.model.state, this.model.mySeat);
    if (!words) return;
    this.logEntries.push(words);
    const item = h(`li.log-${event.kind}`, {}, words);
    this.logList.appendChild(item);
    while (this.logList.children.length > LOG_LIMIT) this.logList.firstChild.remove();
    item.scrollIntoView?.({ block: "nearest" });
  }

  showError(frame) {
    const text = errorText(frame.code, frame.message);
    this.notice.replaceChildren(h("p.error", { "data-code": frame.code || "" }, text,
      h("button.link.dismiss", { onclick: () => this.notice.replaceChildren(), "aria-label": t("table.close") }, "×")));
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => this.notice.replaceChildren(), 8000);
  }

  send(message) {
    return this.connection.send(message).catch((error) => {
      this.showError(error);
      throw error;
    });
  }

  // --- actions (what the buttons do) ---

  get actions() {
    // Game commands name the last seq seen: a race lost to a faster player is answered
    // "too late" instead of a confusing "not your turn".
    const fire = (message) => this.send(message).catch(() => {});
    const move = (message) => fire(this.model.seq === null ? message : { ...message, seq: this.model.seq });
    return {
      draw: () => move({ type: "draw" }),
      keep: () => move({ type: "keep" }),
      callUno: () => move({ type: "uno" }),
      catchSeat: (seat) => move({ type: "catch", target: seat }),
      challenge: () => move({ type: "challenge" }),
      accept: () => move({ type: "accept" }),
      chooseColor: (color) => move({ type: "choose_color", color }),
      give: (card) => move({ type: "give", card }),
      slap: () => move({ type: "slap" }),
      nextRound: () => fire({ type: "next_round" }),
      start: () => fire({ type: "start" }),
      addBot: () => fire({ type: "add_bot" }),
      kick: (seat) => fire({ type: "kick", seat }),
      leave: () => this.send({ type: "leave" }).then(() => {
        seatStore.forget(this.code);
        location.hash = "#/";
      }).catch(() => {}),
      setRules: (preset, rules) => this.send({ type: "rules", preset, rules })
        .then(() => this.flash(t("room.rules_sent"))).catch(() => {}),
      copyLink: (link) => this.copyLink(link),
      closeReveal: () => {
        this.model.reveal = null;
        this.render();
      },
      chooseCard: (card) => this.chooseCard(card),
      finishPlay: (play) => this.finishPlay(play),
      cancelPick: () => {
        this.ui.pickColorFor = null;
        this.ui.pickTargetFor = null;
        this.render();
      },
    };
  }

  chooseCard(card) {
    const s = this.model.state;
    const rules = s.rules || {};
    const parsed = parseCard(card);
    const play = { card };
    const custom = /^WC([123])$/.exec(card);
    const customEffect = custom ? rules.custom_cards?.[Number(custom[1]) - 1]?.effect : null;
    const last = this.model.hand.length === 1; // no swap or exchange with the last card
    const needsTarget = !last && ((rules.seven_zero && parsed.rank === "7")
      || (rules.five_exchange && parsed.rank === "5") || customEffect === "swap_hands");
    if (needsTarget) {
      this.ui.pickTargetFor = play;
      if (parsed.wild && !rules.color_wheel) play.needsColor = true;
    } else if (parsed.wild && !rules.color_wheel) {
      this.ui.pickColorFor = play;
    } else {
      this.finishPlay(play);
      return;
    }
    this.render();
    this.root.querySelector(".prompt button")?.focus();
  }

  finishPlay(play) {
    if (play.needsColor && !play.color) {
      this.ui.pickTargetFor = null;
      this.ui.pickColorFor = { ...play, needsColor: false };
      this.render();
      return;
    }
    this.ui.pickColorFor = null;
    this.ui.pickTargetFor = null;
    const message = { type: "play", card: play.card };
    if (this.model.seq !== null) message.seq = this.model.seq;
    if (play.color) message.color = play.color;
    if (play.target !== undefined && play.target !== null) message.target = play.target;
    this.send(message).catch(() => {});
    this.render();
  }

  copyLink(link) {
    navigator.clipboard?.writeText(link).catch(() => {});
    this.ui.copied = true;
    this.render();
    setTimeout(() => {
      this.ui.copied = false;
      this.render();
    }, 2000);
  }

  flash(text) {
    this.notice.replaceChildren(h("p.info", {}, text));
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => this.notice.replaceChildren(), 4000);
  }

  // --- rendering ---

  tick() {
    updateTimers(this.root, this.model);
  }

  render() {
    const m = this.model;
    const s = m.state;
    this.renderBar();
    this.logTitle.textContent = t("log.title");
    this.chatButton.textContent = t("chat.send");
    this.chatInput.setAttribute("aria-label", t("chat.label"));
    if (!s) {
      replaceChildren(this.centerEl, h("p.loading", {}, this.status === "closed" ? "" : t("table.connecting")));
      return;
    }
    this.root.querySelector(".table-page").dataset.phase = s.phase;
    const lobby = s.phase === "lobby";
    replaceChildren(this.seatsEl, lobby ? [] : seatOrder(s, m.mySeat).map((seat) => seatTile(m, seat, this.actions)));
    replaceChildren(this.centerEl, lobby ? null : centerArea(m, this.actions));
    replaceChildren(this.promptEl, lobby ? null : promptArea(m, this.ui, this.actions));
    replaceChildren(this.panelEl,
      lobby ? lobbyPanel(m, this.ui, this.actions)
        : s.phase === "round_over" || s.phase === "match_over" ? resultsPanel(m, this.actions) : null);
    const seated = m.mySeat !== null && this.mode === "play";
    const handHadFocus = this.handEl.contains(document.activeElement);
    replaceChildren(this.handEl, seated && !lobby && s.phase === "playing" ? handArea(m, this.ui, this.actions) : null);
    if (handHadFocus && !this.handEl.contains(document.activeElement)) {
      // The card that had focus was played: stay in the hand rather than fall back to the page.
      const next = this.handEl.querySelector("button:not(:disabled)") || this.handEl.querySelector("h2");
      next?.focus({ preventScroll: true });
    }
    this.focusNewPrompt();
    this.tick();
  }

  /** A question for this seat (challenge, stack, slap, color) takes the keyboard focus once. */
  focusNewPrompt() {
    const prompt = this.promptEl.querySelector(".prompt.challenge, .prompt.stack, .prompt.slap, .color-picker, .seat-picker");
    if (prompt && !this.promptFocused) {
      const active = document.activeElement;
      if (!active || active === document.body || this.root.contains(active)) prompt.querySelector("button")?.focus();
    }
    this.promptFocused = Boolean(prompt);
  }

  /** Keys for the fast moments: U calls UNO, D draws (not while typing). */
  onKey(event) {
    if (event.target.closest?.("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    if (key === "u" && this.model.canCallUno) this.actions.callUno();
    else if (key === "d" && this.model.myMove && (!this.model.state.pending || this.model.state.pending.kind === "stack")) {
      this.actions.draw();
    } else return;
    event.preventDefault();
  }

  renderBar() {
    replaceChildren(this.bar, ...tableBar(this.code, this.mode, this.status, this.closedCode));
  }
}
