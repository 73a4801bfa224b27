// The home page: your guest profile, create a room, join by code, public rooms to join or watch.
import { h, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";
import { api, profile, seats, knownLeagues, ensureProfile, ApiError } from "./api.js";
import { rulesFields } from "./rules-form.js";
import { errorText } from "./errors.js";
import { tournamentPanel } from "./tournament-form.js";

function problem(error) {
  return error instanceof ApiError ? errorText(error.code, error.message) : t("error.unknown");
}

export function mountLobby(root) {
  const me = profile.get();
  const nameInput = h("input#profile-name", { type: "text", value: me.name || "", maxlength: 32, autocomplete: "nickname", required: true });
  const profileNote = h("p.hint", { role: "status" }, me.name ? t("profile.playing_as", { name: me.name }) : "");

  async function currentName() {
    const name = nameInput.value.trim();
    if (!name) {
      nameInput.focus();
      throw new ApiError(0, "name", t("profile.name_needed"));
    }
    if (name !== profile.get().name || !profile.get().key) await ensureProfile(name);
    return name;
  }

  const profileForm = h("form.card-panel.profile", {
    onsubmit: async (event) => {
      event.preventDefault();
      try {
        const name = await currentName();
        profileNote.textContent = t("profile.saved", { name });
      } catch (error) {
        profileNote.textContent = error.code === "name" ? error.message : problem(error);
      }
    },
  },
  h("h2", {}, t("profile.title")),
  h("div.field", {}, h("label", { for: "profile-name" }, t("profile.name")), nameInput),
  h("button.secondary", { type: "submit" }, t("profile.save")),
  profileNote);

  // --- create ---
  const isPublic = h("input#create-public", { type: "checkbox", checked: true });
  // O-APPROVAL: the host lets each player (and, if asked, each spectator) in.
  const approval = h("input#create-approval", { type: "checkbox" });
  const approvalWatch = h("input#create-approval-watch", { type: "checkbox" });
  const maxPlayers = h("select#create-max", {}, [2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => h("option", { value: n, selected: n === 6 }, String(n))));
  // A teams room (H-TEAMS) is a table of four by default: partners sit opposite.
  const rules = rulesFields({ onPreset: (name) => {
    if (name === "teams") maxPlayers.value = "4";
  } });
  const league = h("select#create-league", {},
    h("option", { value: "" }, t("create.no_league")),
    knownLeagues.get().map((l) => h("option", { value: l.id }, l.name)));
  // Every league on the server, not only those this browser made (e.g. the host's, made elsewhere).
  api.leagues({ limit: 100 }).then((page) => {
    const shown = new Set([...league.options].map((o) => o.value));
    for (const l of page.leagues || []) {
      if (!shown.has(String(l.id))) league.append(h("option", { value: l.id }, l.name));
    }
  }).catch(() => {});
  const createError = h("p.form-error", { role: "alert" });
  const createForm = h("form.card-panel.create", {
    onsubmit: async (event) => {
      event.preventDefault();
      createError.textContent = "";
      try {
        const name = await currentName();
        const { preset, rules: changes } = rules.read();
        const body = { name, preset, public: isPublic.checked, max_players: Number(maxPlayers.value) };
        if (approval.checked) body.approval = true;
        if (approvalWatch.checked) body.approval_watch = true;
        if (Object.keys(changes).length) body.rules = changes;
        if (league.value) body.league = String(league.value);
        const key = profile.get().key;
        if (key) body.player_key = key;
        const room = await api.createRoom(body);
        seats.save(room.code, { token: room.token, seat: room.seat });
        location.hash = `#/room/${room.code}`;
      } catch (error) {
        createError.textContent = error.code === "name" ? error.message : problem(error);
      }
    },
  },
  h("h2", {}, t("create.title")),
  h("div.field-row", {},
    h("div.field", {}, h("label", { for: "create-max" }, t("create.max_players")), maxPlayers),
    h("div.field", {}, h("label", { for: "create-league" }, t("create.league")), league)),
  h("div.field.check", {}, h("label", { for: "create-public" }, isPublic, " ", t("create.public"))),
  h("div.field.check", {}, h("label", { for: "create-approval" }, approval, " ", t("create.approval"))),
  h("div.field.check", {}, h("label", { for: "create-approval-watch" }, approvalWatch, " ", t("create.approval_watch"))),
  rules.presetField,
  h("details.more-rules", {}, h("summary", {}, t("create.more_rules")), rules.toggles),
  createError,
  h("button.primary.big", { type: "submit" }, t("create.submit")));

  // --- join by code ---
  const codeInput = h("input#join-code", { type: "text", maxlength: 12, autocapitalize: "characters", autocomplete: "off", spellcheck: false, required: true });
  const joinError = h("p.form-error", { role: "alert" });
  async function join(watch) {
    const code = codeInput.value.trim().toUpperCase();
    if (!code) {
      codeInput.focus();
      return;
    }
    joinError.textContent = "";
    if (watch) {
      location.hash = `#/watch/${code}`;
      return;
    }
    if (seats.get(code)) {
      location.hash = `#/room/${code}`;
      return;
    }
    try {
      const name = await currentName();
      const body = { name };
      const key = profile.get().key;
      if (key) body.player_key = key;
      const joined = await api.joinRoom(code, body);
      seats.save(code, { token: joined.token, seat: joined.seat ?? null }); // 202: a request, no seat yet
      location.hash = `#/room/${code}`;
    } catch (error) {
      joinError.textContent = error.code === "name" ? error.message
        : error.status === 404 ? t("error.room_not_found") : problem(error);
    }
  }
  const joinForm = h("form.card-panel.join", { onsubmit: (e) => { e.preventDefault(); join(false); } },
    h("h2", {}, t("join.title")),
    h("div.field", {}, h("label", { for: "join-code" }, t("join.code")), codeInput),
    joinError,
    h("div.form-buttons", {},
      h("button.primary", { type: "submit" }, t("join.submit")),
      h("button.secondary", { type: "button", onclick: () => join(true) }, t("join.watch"))));

  // --- quick match: a seat now, in the fullest public room waiting for players ---
  const quickError = h("p.form-error", { role: "alert" });
  const quickButton = h("button.primary.big.play-now", { type: "button", onclick: async () => {
    quickError.textContent = "";
    quickButton.disabled = true;
    try {
      const name = await currentName();
      const body = { name };
      const key = profile.get().key;
      if (key) body.player_key = key;
      const seat = await api.quick(body);
      seats.save(seat.code, { token: seat.token, seat: seat.seat });
      location.hash = `#/room/${seat.code}`;
    } catch (error) {
      quickError.textContent = error.code === "name" ? error.message : problem(error);
    } finally {
      quickButton.disabled = false;
    }
  } }, t("quick.play_now"));
  const quickPanel = h("section.card-panel.quick", { "aria-labelledby": "quick-title" },
    h("h2#quick-title", {}, t("quick.title")), h("p.hint", {}, t("quick.hint")), quickError, quickButton);

  // --- public rooms ---
  const roomList = h("ul.room-list", { "aria-live": "polite" }, h("li.muted", {}, t("loading")));
  async function loadRooms() {
    try {
      const data = await api.listRooms();
      const rooms = Array.isArray(data) ? data : data?.rooms || [];
      replaceChildren(roomList, rooms.length ? rooms.map(roomItem) : h("li.muted", {}, t("rooms.none")));
    } catch (error) {
      replaceChildren(roomList, h("li.muted", {}, problem(error)));
    }
  }
  const roomsPanel = h("section.card-panel.rooms", { "aria-labelledby": "rooms-title" },
    h("div.panel-head", {}, h("h2#rooms-title", {}, t("rooms.title")),
      h("button.link", { type: "button", onclick: loadRooms }, t("rooms.refresh"))),
    roomList);

  root.replaceChildren(h("div.home", {},
    h("section.hero", {}, h("h1", {}, t("app.title")), h("p", {}, t("app.tagline"))),
    h("div.home-grid.lobby-grid", {}, profileForm, quickPanel, createForm, joinForm, roomsPanel, tournamentPanel())));
  loadRooms();
  const timer = setInterval(loadRooms, 10000);
  return () => clearInterval(timer);
}

function roomItem(room) {
  const code = room.code;
  const count = room.players ?? room.seated ?? (Array.isArray(room.seats) ? room.seats.length : 0);
  const max = room.max_players ?? room.max ?? "?";
  const phase = room.phase || "lobby";
  const names = Array.isArray(room.seats) ? room.seats.map((s) => s.name).filter(Boolean).join(", ")
    : Array.isArray(room.names) ? room.names.join(", ") : room.host_name || room.name || "";
  const full = typeof max === "number" && count >= max;
  return h("li.room-item", { "data-code": code },
    h("div.room-main", {},
      h("span.room-code", {}, code),
      h("span.room-meta", {}, `${t("rooms.players", { n: count, max })} · ${t(`rooms.phase.${phase}`)}`),
      names ? h("span.room-names", {}, names) : null),
    h("div.room-actions", {},
      phase === "lobby" && !full ? h("a.button.primary", { href: `#/room/${code}` }, t("join.submit")) : null,
      h("a.button.secondary", { href: `#/watch/${code}` }, t("join.watch"))));
}
