// The tournament's party screen (#/tv/tournament/CODE), for a 1080p or 4K screen read from across
// the room: round n of m and the phase, the standings, every table of the round live with its
// leader and a link to watch it, the QR code and the code to join; the podium at the end.
import { h, keep, replaceChildren } from "./dom.js";
import { t, onLangChange } from "./i18n.js";
import { announce, quiet, regions } from "./announcer.js";
import { TournamentFeed } from "./tournament-feed.js";
import { roundText, standingsTable, tablesList, tournamentPodium } from "./tournament-parts.js";
import { tournamentStatus, tournamentNews } from "./tournament-words.js";
import { LiveTables } from "./tournament-live.js";

const STANDING_ROWS = 14; // as many as stay legible from the sofa; the rest are counted

export function mountTournamentTv(root, code) {
  const screen = new TournamentTv(root, code);
  screen.start();
  return () => screen.stop();
}

class TournamentTv {
  constructor(root, code) {
    this.root = root;
    this.code = code;
    this.status = "connecting";
    this.detail = null;
    this.view = null;
    this.skew = 0;
    this.live = new LiveTables(() => this.renderSoon());
    this.feed = new TournamentFeed(code, {
      onChange: (view) => {
        this.view = view;
        // The server's clock less this device's: a clock set wrong still counts the round right.
        if (typeof view?.now_ms === "number") this.skew = view.now_ms - Date.now();
        this.render();
      },
      onEvent: (event, view) => announce(tournamentNews(event, view)),
      onStatus: (status, detail) => { this.status = status; this.detail = detail; this.render(); },
    });
  }

  start() {
    regions();
    this.head = h("header.ttv-head");
    this.standings = h("section.ttv-standings.ttv-panel", { "aria-labelledby": "ttv-standings-title" });
    this.middle = h("div.ttv-middle.ttv-panel"); // the round's tables, or the podium (a section of its own)
    this.side = h("aside.ttv-side.ttv-panel", { "aria-labelledby": "ttv-join-title" });
    this.root.replaceChildren(h("section.tournament-tv", { "data-testid": "tournament-tv" },
      this.head, h("div.ttv-layout", {}, this.standings, this.middle, this.side)));
    // How long the round has been played, kept by a ticker (round_started_ms, on the server's clock).
    this.clock = keep(h("p.ttv-clock", { "data-testid": "ttv-clock", hidden: true }));
    this.ticker = setInterval(() => this.tick(), 1000);
    this.renderSide();
    this.langOff = onLangChange(() => { this.renderSide(); this.render(); });
    this.feed.start();
    window.unoTournament = this.feed; // lets the browser tests drop the sockets
    this.render();
  }

  stop() {
    this.langOff?.();
    clearInterval(this.ticker);
    clearTimeout(this.soon);
    this.live.stop();
    this.feed.stop();
    quiet();
  }

  /** The code and the QR code change only with the language (the image is kept otherwise). */
  renderSide() {
    const link = `${location.origin}${location.pathname}#/t/${this.code}`;
    // Kept (dom.js): render() changes these two, so they must be the elements on the page.
    this.count = keep(h("p.ttv-count", { "data-testid": "ttv-count" }));
    this.caption = keep(h("figcaption", {}, t("tour.scan")));
    replaceChildren(this.side,
      h("h2#ttv-join-title", {}, t("tour.join_title")),
      h("div.tv-code", {},
        h("span.tv-code-label", {}, t("tour.code_label")),
        h("span.tv-code-value", { "data-testid": "tv-code" }, this.code)),
      h("figure.tv-qr", {},
        h("img", { src: `/api/tournaments/${encodeURIComponent(this.code)}/qr.svg`, alt: t("tour.qr_alt", { code: this.code }), width: 300, height: 300 }),
        this.caption),
      h("p.tv-link", {}, link),
      this.count);
  }

  tick() {
    const v = this.view;
    const started = v?.round_started_ms;
    this.clock.hidden = !(v?.phase === "playing" && typeof started === "number");
    if (this.clock.hidden) return;
    const total = Math.max(0, Math.floor((Date.now() + this.skew - started) / 1000));
    const text = t("tour.clock", { time: `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}` });
    if (this.clock.textContent !== text) this.clock.textContent = text;
  }

  /** Bots play fast: the live tables redraw the screen a few times a second at most. */
  renderSoon() {
    if (this.soon) return;
    this.soon = setTimeout(() => { this.soon = null; this.render(); }, 300);
  }

  render() {
    const v = this.view;
    replaceChildren(this.head,
      h("h1.ttv-title", {}, v ? v.name : this.code),
      v ? h("p.ttv-round", { "data-testid": "ttv-round" }, roundText(v)) : null,
      v ? h("p.ttv-phase", { "data-testid": "tour-phase" }, t(`tour.stage.${v.phase}`)) : null,
      this.clock,
      tournamentStatus(this.status, this.detail, this.code));
    this.tick();
    if (!v) return;
    this.live.follow((v.tables || []).filter((table) => table.phase === "playing").map((table) => table.room));
    const active = (v.participants || []).filter((p) => !p.withdrawn).length;
    this.count.textContent = t("tour.players_count", { n: active });
    this.caption.textContent = t(v.phase === "over" ? "tour.scan_results" : "tour.scan");
    replaceChildren(this.standings,
      h("h2#ttv-standings-title", {}, t("tour.standings")),
      standingsTable(v, null, { limit: STANDING_ROWS, compact: true, id: "ttv-standings-title" }));
    const podium = tournamentPodium(v);
    if (podium) {
      replaceChildren(this.middle, podium);
    } else if (v.tables?.length) {
      replaceChildren(this.middle, h("h2#ttv-middle-title", {}, t("tour.tables", { n: v.round })), tablesList(v, null, (room) => this.live.standing(room)));
    } else {
      const waiting = (v.participants || []).filter((p) => !p.withdrawn);
      replaceChildren(this.middle,
        h("h2#ttv-middle-title", {}, t("tour.participants", { n: waiting.length })),
        waiting.length ? h("ul.ttv-people", {}, waiting.map((p) => h("li", {}, p.name))) : h("p.muted", {}, t("tour.waiting_players")));
    }
  }
}
