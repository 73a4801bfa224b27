// The table page: connects, keeps the model, renders, and turns clicks and keys into commands.
import { h, replaceChildren } from "./dom.js";
import { t, onLangChange } from "./i18n.js";
import { api, seats as seatStore, watchers } from "./api.js";
import { mountJoinPrompt, mountWatchPrompt } from "./join.js";
import { TableConnection } from "./connection.js";
import { TableModel } from "./model.js";
import { seatOrder, seatTile, centerArea } from "./table-seats.js";
import { handArea, promptArea, lobbyPanel } from "./table-panels.js";
import { resultsPanel } from "./table-results.js";
import { errorText } from "./errors.js";
import { tableBar, updateTimers, statusText } from "./table-bar.js";
import { reactionBar, chatForm } from "./audience.js";
import { partySide, partyLobbyCenter, placeSeats } from "./party.js";
import { beforeEvent, afterEvent } from "./table-effects.js";
import { isMuted, setMuted, onMuteChange } from "./sound.js";
import { TableLog } from "./table-log.js";
import { tableActions } from "./table-actions.js";
import { TableFocus } from "./table-focus.js";
import { keysDialog, tableKey, handKey } from "./keys.js";
import { alertNow, announce, quiet, regions } from "./announcer.js";
import { icon } from "./icons.js";
import { hostPeoplePanel, spectatorQueuePanel, seatBanButtons, peopleNews, queueNews } from "./people.js";
import { banners, waitingScreen } from "./table-banners.js";
import { noteBuild } from "./build-watch.js";

// Where the log and chat are a drawer beside the table (a laptop's screen), as in app.css.
const DRAWER_SCREEN = "(min-width: 861px) and (max-width: 1599px), (min-width: 861px) and (max-height: 899px)";

/** Mount the table for room `code`; mode "play" (your seat), "watch" or "tv". Returns unmount. */
export function mountTable(root, { code, mode }) {
  const seat = mode === "play" ? seatStore.get(code) : null;
  if (mode === "play" && !seat) return mountJoinPrompt(root, code);
  // A named spectator (O-QUEUE) watches with their own token.
  const token = seat ? seat.token : mode === "watch" ? watchers.get(code)?.token ?? null : null;
  if (mode === "watch" && !token) {
    // O-APPROVAL: a room that lets spectators in by approval is asked first, with a name.
    let unmount = null;
    let gone = false;
    api.room(code).then((room) => room.approval_watch, () => false).then((ask) => {
      if (gone) return;
      unmount = ask ? mountWatchPrompt(root, code) : mountView(root, code, mode, null);
    });
    return () => {
      gone = true;
      unmount?.();
    };
  }
  return mountView(root, code, mode, token);
}

function mountView(root, code, mode, token) {
  const view = new TableView(root, code, mode, token);
  view.start();
  return () => view.stop();
}

class TableView {
  constructor(root, code, mode, token) {
    this.root = root;
    this.code = code;
    this.mode = mode;
    this.model = new TableModel();
    this.ui = { code, mode, pickColorFor: null, pickTargetFor: null, selection: null, copied: false };
    this.status = "connecting";
    this.closedCode = null;
    this.syncing = false;
    this.drawerOpen = false;
    this.unread = 0;
    this.focus = new TableFocus(this);
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
    this.notice = h("div.notice");
    this.bannerEl = h("div.banner-slot");
    this.peopleEl = h("div.people-slot");
    this.seatsEl = h("ul.seats", { "aria-label": t("room.seats") });
    this.centerEl = h("div.center-slot");
    this.promptEl = h("div.prompt-slot");
    this.panelEl = h("div.panel-slot");
    this.handEl = h("div.hand-slot");
    this.logList = h("ol.log-list");
    this.log = new TableLog(this.logList, { onLine: () => this.countUnread() });
    this.reactionLayer = h("div.reactions-layer");
    this.momentLayer = h("div.moment-layer", { "aria-hidden": "true" });
    this.chat = tv ? null : chatForm(this.mode !== "play", (text) => this.send({ type: "chat", text }));
    this.reactions = tv ? null : h("div.reaction-slot", {}, reactionBar((emoji) => this.actions.react(emoji)));
    this.logTitle = h("h2#log-title", { tabindex: "-1" }, t("log.title"));
    this.logClose = h("button.secondary.icon-button.drawer-close", { type: "button", "aria-label": t("log.close"),
      onclick: () => this.toggleDrawer(false) }, icon("close"));
    this.logArea = h("aside#log-area.log-area", { "aria-labelledby": "log-title" },
      h("div.log-head", {}, this.logTitle, this.logClose),
      h("div.log-scroll", { tabindex: "0", role: "region", "aria-labelledby": "log-title" }, this.logList),
      this.chat?.form);
    const board = h("div.board", {}, this.seatsEl, this.centerEl, this.reactionLayer);
    let layout;
    if (tv) {
      this.sideEl = h("div.tv-side-top");
      layout = h("div.tv-layout", {},
        h("div.tv-stage", {}, board, this.momentLayer, this.panelEl),
        h("aside.tv-side", { "aria-label": t("tv.join_title") }, this.sideEl, this.logArea));
    } else {
      // The questions (a colour, a target, a challenge) open over the hand, never moving it.
      layout = h("div.table-layout", {},
        h("div.table-main", {}, board, this.reactions, this.peopleEl, this.panelEl,
          h("div.hand-dock", {}, this.promptEl, this.handEl)),
        this.logArea);
    }
    this.keys = tv ? null : keysDialog();
    this.page = h(`section.table-page${tv ? ".tv" : ""}`, { "data-drawer": "closed" }, this.bar, this.notice, this.bannerEl, layout, this.keys);
    this.root.replaceChildren(this.page);
    regions();
    this.langOff = onLangChange(() => this.relabel());
    this.muteOff = onMuteChange(() => this.renderBar());
    this.keyHandler = (event) => this.onKey(event);
    this.focusHandler = (event) => this.focus.noteFocus(event.target);
    if (!tv) document.addEventListener("keydown", this.keyHandler);
    this.root.addEventListener("focusin", this.focusHandler);
  }

  relabel() {
    this.chat?.relabel();
    if (this.reactions) replaceChildren(this.reactions, reactionBar((emoji) => this.actions.react(emoji)));
    this.logClose.setAttribute("aria-label", t("log.close"));
    if (this.keys) {
      const fresh = keysDialog();
      const open = this.keys.open;
      this.keys.replaceWith(fresh);
      this.keys = fresh;
      if (open) fresh.showModal();
    }
    this.render();
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
    quiet();
    this.langOff();
    this.muteOff();
    this.connection.close();
    if (window.unoTable === this) window.unoTable = null;
  }

  // --- frames ---

  onFrame(frame) {
    let effect = null;
    if (frame.type === "state") {
      this.syncing = false;
      this.storeWaiting = false; // an accepted state: the database is back
      this.model.applyState(frame);
      if (this.afterState(frame.state)) return;
      this.clearPicks(true);
    } else if (frame.type === "recent") {
      this.log.recent(frame, this.model); // the story so far: in the panel, nothing more
      return;
    } else if (frame.type === "event") {
      const before = this.model.state ? beforeEvent(this, frame.event) : null;
      const hadState = Boolean(this.model.state);
      const handBefore = this.model.hand.join();
      const result = this.model.applyEvent(frame);
      if (result === "duplicate") return;
      if (this.model.hand.join() !== handBefore) this.ui.selection = null; // its places moved
      if (result !== "sync" || hadState) this.log.event(frame.event, frame.seq, this.model);
      this.alertFor(frame.event);
      announce(peopleNews(this.model, frame.event));
      if (frame.event.kind === "away" && frame.event.seat === this.model.mySeat && frame.event.away && this.mode === "play") {
        alertNow(t("away.you"));
      }
      if (result === "sync") this.requestSync();
      if (before) effect = () => afterEvent(this, frame.event, before);
      if (frame.legal || frame.event.kind === "round_over") this.clearPicks(true);
    } else if (frame.type === "spectator_chat") {
      this.log.line(t("log.spectator_chat", { n: frame.spectator ?? "?", text: frame.text }), "spectator_chat");
      return;
    } else if (frame.type === "error") {
      if (frame.code === "store_unavailable") {
        if (!this.storeWaiting) announce(t("store.waiting"));
        this.storeWaiting = true; // stays until the next accepted state
        this.render();
        return;
      }
      this.showError(frame);
      return;
    } else {
      return;
    }
    this.render();
    effect?.();
    noteBuild(this.model.state);
  }

  /** After a state: a waiting person (O-APPROVAL), a spectator seated (O-QUEUE), the build. */
  afterState(state) {
    if (state.you?.waiting === true && !this.wasWaiting) announce(t("approval.waiting"));
    this.wasWaiting = state.you?.waiting === true; // O-APPROVAL (state.waiting is the seats the turn waits for)
    announce(queueNews(this.lastQueued ?? null, state.you));
    this.lastQueued = typeof state.you?.queued === "number" ? state.you.queued : null;
    const you = state.you || {};
    if (this.mode === "watch" && typeof you.seat === "number") {
      // Seated from the queue: this person's token is the seat's from now on.
      const token = you.token || this.connection.token;
      seatStore.save(this.code, { token, seat: you.seat });
      watchers.forget(this.code);
      location.hash = `#/room/${this.code}`;
      return true;
    }
    if (this.mode === "play" && typeof you.seat === "number") {
      const stored = seatStore.get(this.code);
      if (stored && stored.seat !== you.seat) seatStore.save(this.code, { ...stored, seat: you.seat });
    }
    const watching = this.mode === "watch" ? watchers.get(this.code) : null;
    if (watching?.queueNext && typeof you.spectator === "number") {
      watchers.save(this.code, { ...watching, queueNext: false });
      if (you.queued === null || you.queued === undefined) this.send({ type: "queue" }).catch(() => {});
    }
    return false;
  }

  /** What a player must hear at once: they can be caught (their last card but one went down
   * without UNO: at once, or when the O-WINDOW grace ends), they were caught. */
  alertFor(event) {
    const me = this.model.mySeat;
    const rules = this.model.state?.rules || {};
    if (me === null || this.mode !== "play" || event.seat !== me || rules.uno_call === "off") return;
    const uncalled = event.kind === "played" && event.cards_left === 1 && !this.model.seat(me).uno;
    if ((uncalled && !(rules.uno_grace_ms > 0)) || event.kind === "catch_open") alertNow(t("live.can_be_caught"));
    else if (event.kind === "caught") alertNow(t("live.caught", { n: rules.uno_penalty ?? 2 }));
  }

  /** Forget a half-made play (a color, a target, several cards) once the table moved on. */
  clearPicks(onlyStale = false) {
    const pick = this.ui.selection || this.ui.pickColorFor || this.ui.pickTargetFor;
    if (onlyStale && pick && (this.model.isPlayable(pick.card) || this.model.mayTry())) return;
    this.ui.pickColorFor = null;
    this.ui.pickTargetFor = null;
    this.ui.selection = null;
  }

  onStatus(status, detail) {
    if (status !== this.status && (status !== "open" || this.status === "reconnecting")) {
      announce(statusText(status, detail?.code ?? null, this.code, detail?.reason)); // a drop, and the way back
    }
    this.status = status;
    if (status === "closed") {
      this.closedCode = detail?.code ?? null;
      this.closedReason = detail?.reason ?? "";
      if ([4401, 4403].includes(this.closedCode)) {
        seatStore.forget(this.code);
        watchers.forget(this.code);
      }
    }
    if (status === "open" && this.model.state) this.requestSync();
    this.render();
  }

  requestSync() {
    if (this.syncing) return;
    this.syncing = true;
    this.connection.send({ type: "sync" }).catch(() => (this.syncing = false));
  }

  showError(frame) {
    const text = errorText(frame.code, frame.message);
    alertNow(text);
    this.notice.replaceChildren(h("p.error", { "data-code": frame.code || "" }, text,
      h("button.link.dismiss", { onclick: () => this.notice.replaceChildren(), "aria-label": t("table.close") }, icon("close"))));
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => this.notice.replaceChildren(), 8000);
  }

  send(message) {
    return this.connection.send(message).catch((error) => {
      this.showError(error);
      throw error;
    });
  }

  // --- actions (what the buttons and keys do) ---

  get actions() {
    return tableActions(this);
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
    announce(text);
    this.notice.replaceChildren(h("p.info", {}, text));
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => this.notice.replaceChildren(), 4000);
  }

  // --- keys, the drawer, the focus ---

  onKey(event) {
    if (event.defaultPrevented || document.querySelector("dialog[open]")) return;
    if (handKey(event) || tableKey(this, event)) event.preventDefault();
  }

  focusHand() {
    this.focus.focusHand();
  }

  showKeys() {
    if (this.keys && !this.keys.open) this.keys.showModal();
  }

  /** The log drawer (a laptop's screen): open it and focus its heading, or close it. */
  toggleDrawer(open = !this.drawerOpen) {
    this.drawerOpen = open;
    if (open) this.unread = 0;
    this.page.dataset.drawer = open ? "open" : "closed";
    const inside = this.logArea.contains(document.activeElement);
    this.renderBar();
    if (open && window.matchMedia?.(DRAWER_SCREEN).matches) this.logTitle.focus({ preventScroll: true });
    else if (!open && inside) this.bar.querySelector(".drawer-button")?.focus();
  }

  countUnread() {
    if (this.drawerOpen || !window.matchMedia?.(DRAWER_SCREEN).matches) return;
    this.unread += 1;
    this.renderBar();
  }

  /** Esc: close the drawer, else cancel a half-made play. */
  escape() {
    if (this.drawerOpen) {
      this.toggleDrawer(false);
      return true;
    }
    if (this.ui.pickColorFor || this.ui.pickTargetFor || this.ui.selection) {
      this.actions.cancelPick();
      return true;
    }
    return false;
  }

  // --- rendering ---

  tick() {
    updateTimers(this.root, this.model);
  }

  render() {
    const m = this.model;
    const s = m.state;
    const tv = this.mode === "tv";
    this.renderBar();
    this.logTitle.textContent = t("log.title");
    replaceChildren(this.bannerEl, ...banners(this));
    if (s?.you?.waiting === true || (this.wasWaiting && this.status === "closed")) {
      // O-APPROVAL: nothing of the table until the host lets this person in.
      for (const el of [this.seatsEl, this.promptEl, this.panelEl, this.handEl, this.peopleEl]) replaceChildren(el);
      replaceChildren(this.centerEl, waitingScreen(this));
      return;
    }
    if (!s) {
      replaceChildren(this.centerEl, h("p.loading", {}, this.status === "closed" ? "" : t("table.connecting")));
      return;
    }
    const page = this.page;
    page.dataset.phase = s.phase;
    page.classList.toggle("teams", Boolean(s.rules?.teams));
    const lobby = s.phase === "lobby";
    const showSeats = !lobby || tv;
    replaceChildren(this.seatsEl, showSeats ? seatOrder(s, m.mySeat).map((seat) => seatTile(m, seat, this.actions)) : []);
    if (tv) {
      placeSeats(this.seatsEl);
      replaceChildren(this.sideEl, ...partySide(this.code, s));
    }
    replaceChildren(this.centerEl, lobby ? (tv ? partyLobbyCenter(this.code) : null) : centerArea(m, this.actions));
    replaceChildren(this.promptEl, lobby ? null : promptArea(m, this.ui, this.actions));
    replaceChildren(this.panelEl,
      lobby ? (tv ? null : lobbyPanel(m, this.ui, this.actions))
        : s.phase === "round_over" || s.phase === "match_over" ? resultsPanel(m, this.actions) : null);
    replaceChildren(this.peopleEl, tv ? null : hostPeoplePanel(m, this.ui, this.actions),
      tv ? null : spectatorQueuePanel(m, this.ui, this.actions), tv ? null : seatBanButtons(m, this.ui, this.actions));
    const seated = m.mySeat !== null && this.mode === "play";
    const handHadFocus = this.handEl.contains(document.activeElement);
    replaceChildren(this.handEl, seated && !lobby && s.phase === "playing" ? handArea(m, this.ui, this.actions) : null);
    page.classList.toggle("has-hand", Boolean(this.handEl.firstChild));
    if (this.mode === "play" && m.myMove && !this.focus.wasMyMove) alertNow(t("live.your_turn"));
    this.focus.afterRender(handHadFocus);
    this.tick();
  }

  renderBar() {
    replaceChildren(this.bar, ...tableBar({
      code: this.code, mode: this.mode, status: this.status, closedCode: this.closedCode, closedReason: this.closedReason,
      spectators: this.model.state?.spectators, muted: isMuted(), onMute: (muted) => setMuted(muted),
      drawer: this.drawerOpen, onDrawer: () => this.toggleDrawer(), unread: this.unread, onKeys: () => this.showKeys(),
      tournament: this.model.state?.tournament?.code ?? null,
    }));
  }
}
