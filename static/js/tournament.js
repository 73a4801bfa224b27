// A tournament's own page (#/t/CODE), made for a phone: join with a name; your table of this
// round with a Play link to its room, your place, the standings, withdraw; the podium at the
// end; as the host, Start, Next round and removing people. A link opens the party screen.
import { h, keep, replaceChildren } from "./dom.js";
import { t, onLangChange } from "./i18n.js";
import { api, profile, seats, tournamentEntries, ApiError } from "./api.js";
import { errorText } from "./errors.js";
import { announce, quiet, regions } from "./announcer.js";
import { TournamentFeed } from "./tournament-feed.js";
import { nameOf, phaseText, points, roundText, standingsTable, tablesList, tournamentPodium } from "./tournament-parts.js";
import { tournamentStatus, tournamentNews } from "./tournament-words.js";

export function mountTournament(root, code) {
  const page = new TournamentPage(root, code);
  page.start();
  return () => page.stop();
}

class TournamentPage {
  constructor(root, code) {
    this.root = root;
    this.code = code;
    this.status = "connecting";
    this.detail = null;
    this.errorEl = h("p.form-error", { role: "alert" });
    this.view = null;
    this.feed = new TournamentFeed(code, {
      onChange: (view) => this.changed(view),
      onEvent: (event, view) => announce(tournamentNews(event, view)),
      onStatus: (status, detail) => { this.status = status; this.detail = detail; this.render(); },
      onError: (frame) => this.problem(errorText(frame.code, frame.message)),
    });
  }

  start() {
    regions();
    // The alert stays put (a re-inserted alert is said again); the rest is drawn anew.
    this.headEl = h("header.tour-head");
    this.bodyEl = h("div.tour-body");
    this.root.replaceChildren(h("div.page.tour-page", {}, this.headEl, this.errorEl, this.bodyEl));
    this.langOff = onLangChange(() => {
      this.joinForm = null; // built again in the new language
      this.render();
    });
    this.feed.start();
    window.unoTournament = this.feed; // lets the browser tests drop the sockets
    this.render();
  }

  stop() {
    this.langOff?.();
    this.feed.stop();
    quiet();
  }

  changed(view) {
    this.view = view;
    // Your table's seat token is kept where the room page looks for it, so Play opens your seat.
    const table = view.you?.table;
    if (table?.room && table.token && seats.get(table.room)?.token !== table.token) {
      seats.save(table.room, { token: table.token, seat: null });
    }
    this.render();
  }

  /** One alert element for the page: re-rendering never says an old problem again. */
  problem(text) {
    if (this.errorEl.textContent !== text) this.errorEl.textContent = text;
  }

  command(type, extra = {}) {
    this.problem("");
    // Start, Next round and Withdraw go once they are done: the keyboard is not left nowhere.
    this.focusAfter = type === "withdraw" ? "#me-title" : "#host-title";
    if (!this.feed.send({ type, ...extra })) this.problem(t("error.network"));
  }

  async join(name) {
    if (!name) {
      this.problem(t("profile.name_needed"));
      return;
    }
    this.problem("");
    try {
      const body = { name };
      const key = profile.get().key;
      if (key) body.player_key = key;
      const joined = await api.joinTournament(this.code, body);
      profile.save({ ...profile.get(), name });
      tournamentEntries.save(this.code, { token: joined.token, participant: joined.participant });
      this.focusMe = true; // the form goes: the keyboard lands on what replaces it
      announce(t("tour.joined_as", { name }));
      this.feed.start();
    } catch (error) {
      this.problem(!(error instanceof ApiError) ? t("error.unknown")
        : error.status === 404 ? t("tour.not_found")
          : error.code === "too_late" || error.code === "wrong_phase" ? t("tour.too_late") : errorText(error.code, error.message));
    }
  }

  render() {
    const v = this.view;
    replaceChildren(this.headEl,
      h("h1", {}, v ? v.name : t("tour.code_title", { code: this.code })),
      h("p.tour-meta", {},
        h("span.tour-code", {}, t("tour.code", { code: this.code })),
        v ? [" · ", t(`tour.format_short.${v.format}`), " · ", roundText(v)] : null),
      v ? h("p.tour-phase", { "data-testid": "tour-phase" }, phaseText(v)) : null,
      tournamentStatus(this.status, this.detail, this.code));
    if (!v) return;
    const me = v.you?.participant ?? null;
    replaceChildren(this.bodyEl,
      tournamentPodium(v, "card-panel"),
      // The host's Start and Next round before a join form; a playing host's table first.
      me === null ? [v.you?.host ? this.hostPanel(v) : null, this.joinPanel(v)] : [this.mePanel(v, me), v.you?.host ? this.hostPanel(v) : null],
      !v.you?.host && v.phase === "lobby" ? this.peoplePanel(v) : null,
      h("section.card-panel", { "aria-labelledby": "standings-title" },
        h("h2#standings-title", {}, t("tour.standings")), standingsTable(v, me)),
      v.tables?.length ? h("section.card-panel", { "aria-labelledby": "tables-title" },
        h("h2#tables-title", {}, t("tour.tables", { n: v.round })), tablesList(v, me)) : null,
      h("p.tour-links", {},
        h("a.button.secondary", { href: `#/tv/tournament/${this.code}` }, t("tour.party_screen"))));
    if (this.focusMe && me !== null) {
      this.focusMe = false;
      this.bodyEl.querySelector("#me-title")?.focus();
    }
    const lost = !document.activeElement || document.activeElement === document.body;
    if (this.focusAfter && lost) this.bodyEl.querySelector(this.focusAfter)?.focus();
    if (lost) this.focusAfter = null;
  }

  /** The join form is built once and kept (dom.js) across renders, so typing in it is never lost. */
  joinPanel(v) {
    if (v.phase === "over") return null;
    if (!this.joinForm) {
      const input = h("input#tour-join-name", { type: "text", maxlength: 32, required: true, autocomplete: "nickname",
        value: profile.get().name || "" });
      this.hostNote = h("p.hint", {}, t("tour.host_note"));
      this.joinForm = keep(h("form.card-panel.tour-join", { "aria-labelledby": "join-title",
        onsubmit: (e) => { e.preventDefault(); this.join(input.value.trim()); } },
      h("h2#join-title", {}, t("tour.join_title")),
      this.hostNote,
      h("div.field", {}, h("label", { for: "tour-join-name" }, t("profile.name")), input),
      h("button.primary", { type: "submit" }, t("tour.join"))));
    }
    this.hostNote.hidden = !v.you?.host;
    return this.joinForm;
  }

  mePanel(v, me) {
    const mine = (v.participants || []).find((p) => p.participant === me);
    const place = (v.standings || []).find((s) => s.participant === me);
    const table = (v.tables || []).find((tb) => (tb.participants || []).includes(me));
    const room = v.you?.table?.room ?? table?.room ?? null;
    const number = table?.number ?? (v.tables || []).find((tb) => tb.room === room)?.number ?? "";
    let tableLine;
    if (mine?.withdrawn) tableLine = h("p", {}, t("tour.you_withdrew"));
    else if (v.phase === "lobby") tableLine = h("p", {}, t("tour.joined"));
    else if (v.phase === "over") tableLine = null;
    else if (room && table?.phase !== "over" && v.phase === "playing") {
      tableLine = [h("p", {}, t("tour.your_table_is", { n: number })),
        h("a.button.primary.big.play-table", { href: `#/room/${room}`, "data-testid": "play-table" }, t("tour.play", { n: number }))];
    } else if (!table && v.format === "knockout" && v.phase === "playing") tableLine = h("p", {}, t("tour.knocked_out"));
    else tableLine = h("p", {}, t(v.phase === "between" || table?.phase === "over" ? "tour.wait_next" : "tour.no_table"));
    return h("section.card-panel.tour-me", { "aria-labelledby": "me-title", "data-testid": "tour-me" },
      h("h2#me-title", { tabindex: "-1", key: "me-title" }, t("tour.you_title", { name: nameOf(v, me) })),
      place && v.phase !== "lobby" ? h("p.tour-place", { "data-testid": "your-place" },
        t("tour.your_place", { place: place.place, points: points(place.points) })) : null,
      tableLine,
      mine && !mine.withdrawn && v.phase !== "over" ? h("button.link.danger-link", { type: "button", key: "withdraw",
        onclick: () => { if (window.confirm(t("tour.withdraw_confirm"))) this.command("withdraw"); } }, t("tour.withdraw")) : null);
  }

  peoplePanel(v) {
    const active = (v.participants || []).filter((p) => !p.withdrawn);
    return h("section.card-panel", { "aria-labelledby": "people-title" },
      h("h2#people-title", {}, t("tour.participants", { n: active.length })),
      active.length ? h("ul.tour-table-people", { "data-testid": "tour-people" }, active.map((p) => h("li", {}, p.name)))
        : h("p.muted", {}, t("tour.waiting_players")));
  }

  hostPanel(v) {
    const active = (v.participants || []).filter((p) => !p.withdrawn);
    return h("section.card-panel.tour-host", { "aria-labelledby": "host-title", "data-testid": "tour-host" },
      h("h2#host-title", { tabindex: "-1", key: "host-title" }, t("tour.host_title")),
      v.phase === "lobby" ? h("button.primary.big", { type: "button", key: "tour-start", onclick: () => this.command("start") }, t("tour.start")) : null,
      v.phase === "between" ? h("button.primary.big", { type: "button", key: "tour-next", onclick: () => this.command("next_round") }, t("tour.next_round")) : null,
      v.phase === "playing" ? h("p.hint", {}, t("tour.host_wait")) : null,
      // Who is in, to remove: open in the lobby, folded once it plays (as the host left it).
      active.length && v.phase !== "over" ? h("details.tour-manage", { open: this.manageOpen ?? v.phase === "lobby",
        ontoggle: (e) => (this.manageOpen = e.target.open === (v.phase === "lobby") ? null : e.target.open) },
      h("summary", { key: "manage" }, t("tour.participants", { n: active.length })),
      h("ul.people-list.tour-people", {}, active.map((p) => h("li.person", {},
        h("span.person-name", {}, p.name),
        h("button.link", { type: "button", key: `remove-${p.participant}`, onclick: () => {
          if (window.confirm(t("tour.remove_confirm", { name: p.name }))) this.command("remove", { participant: p.participant });
        } }, t("tour.remove", { name: p.name })))))) : null);
  }
}
