// The home page's tournament panel: open one (name, format, table size, rounds, a match's length,
// the rules preset), then its page as the host (the host's token kept by the code); and the
// public tournaments to open.
import { h, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";
import { api, tournamentHosts, ApiError } from "./api.js";
import { PRESETS } from "./rules-schema.js";
import { TOURNAMENT_FORM as LIMITS } from "./tournament-form-schema.js";
import { errorText } from "./errors.js";

const numbers = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const MATCH_ROUNDS_OFFERED = 10; // the server takes more; past ten deals a target score is as good

export function tournamentPanel() {
  const name = h("input#tour-name", { type: "text", maxlength: 32, required: true, autocomplete: "off" });
  const choices = (key, label = String) => numbers(LIMITS[key].min, LIMITS[key].max)
    .map((n) => h("option", { value: n, selected: n === LIMITS[key].default }, label(n)));
  const format = h("select#tour-format", {}, LIMITS.formats.map((f) => h("option", { value: f, selected: f === LIMITS.format }, t(`tour.format.${f}`))));
  const tableSize = h("select#tour-table-size", {}, choices("table_size"));
  const rounds = h("select#tour-rounds", {}, choices("rounds"));
  const roundLimit = h("select#tour-round-limit", { "aria-describedby": "tour-round-limit-about" },
    choices("round_limit", (n) => (n ? String(n) : t("tour.round_limit_none"))).slice(0, MATCH_ROUNDS_OFFERED + 1));
  const isPublic = h("input#tour-public", { type: "checkbox", checked: true });
  // Its own preset field (not the room form's): the home page names each field once.
  const presetAbout = h("p#tour-preset-about.hint", {}, t("preset.official.about"));
  const preset = h("select#tour-preset", { "aria-describedby": "tour-preset-about",
    onchange: (e) => {
      presetAbout.textContent = t(`preset.${e.target.value}.about`);
      if (e.target.value === "teams") tableSize.value = "4"; // H-TEAMS: partners opposite, four a table
    } },
  Object.keys(PRESETS).map((name) => h("option", { value: name }, t(`preset.${name}`))));
  const error = h("p.form-error", { role: "alert" });
  const form = h("form.tour-open", {
    onsubmit: async (event) => {
      event.preventDefault();
      error.textContent = "";
      const title = name.value.trim();
      if (!title) {
        name.focus();
        error.textContent = t("tour.name_needed");
        return;
      }
      try {
        const body = { name: title, format: format.value, preset: preset.value, table_size: Number(tableSize.value),
          rounds: Number(rounds.value), public: isPublic.checked };
        if (Number(roundLimit.value) > 0) body.round_limit = Number(roundLimit.value);
        const opened = await api.createTournament(body);
        tournamentHosts.save(opened.code, { token: opened.token });
        location.hash = `#/t/${opened.code}`;
      } catch (failure) {
        error.textContent = failure instanceof ApiError ? errorText(failure.code, failure.message) : t("error.unknown");
      }
    },
  },
  h("div.field", {}, h("label", { for: "tour-name" }, t("tour.name")), name),
  h("div.field", {}, h("label", { for: "tour-format" }, t("tour.format")), format),
  h("div.field-row", {},
    h("div.field", {}, h("label", { for: "tour-table-size" }, t("tour.table_size")), tableSize),
    h("div.field", {}, h("label", { for: "tour-rounds" }, t("tour.rounds")), rounds)),
  h("div.field", {}, h("label", { for: "tour-round-limit" }, t("tour.round_limit")), roundLimit,
    h("p#tour-round-limit-about.hint", {}, t("tour.round_limit_about"))),
  h("div.field", {}, h("label", { for: "tour-preset" }, t("tour.preset")), preset, presetAbout),
  h("div.field.check", {}, h("label", { for: "tour-public" }, isPublic, " ", t("tour.public"))),
  error,
  h("button.primary.big", { type: "submit" }, t("tour.submit")));

  const list = h("ul.room-list.tour-list", { "aria-labelledby": "tour-list-title" });
  const listSection = h("div.tour-directory", { hidden: true },
    h("h3#tour-list-title", {}, t("tour.list_title")), list);
  api.listTournaments().then((data) => {
    const open = (data?.tournaments || []).filter((x) => x.phase !== "over");
    if (!open.length) return;
    replaceChildren(list, open.map((x) => h("li.room-item.tour-item", { "data-tournament": x.code },
      h("div.room-main", {}, h("span.room-code", {}, x.name),
        h("span.room-meta", {}, `${x.code} · ${t("tour.players_count", { n: x.participants })} · ${t(`tour.phase_short.${x.phase}`)}`)),
      h("div.room-actions", {}, h("a.button.secondary", { href: `#/t/${x.code}` }, t("tour.open"))))));
    listSection.hidden = false;
  }).catch(() => {});

  return h("section.card-panel.tournament", { "aria-labelledby": "tour-open-title" },
    h("h2#tour-open-title", {}, t("tour.open_title")),
    h("p.hint", {}, t("tour.open_hint")),
    form, listSection);
}
