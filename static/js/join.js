// The page for a room where this browser holds no seat yet: join with a name, or watch.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { api, seats as seatStore, watchers, profile, ApiError } from "./api.js";
import { errorText } from "./errors.js";

/** Not seated here yet: join with the profile name, or watch. */
export function mountJoinPrompt(root, code) {
  const me = profile.get();
  const name = h("input#join-name", { type: "text", value: me.name || "", maxlength: 32, required: true, autocomplete: "nickname" });
  const message = h("p.form-error", { role: "alert" });
  const form = h("form.card-panel.join-panel", {
    onsubmit: async (event) => {
      event.preventDefault();
      const value = name.value.trim();
      if (!value) {
        message.textContent = t("profile.name_needed");
        return;
      }
      try {
        const body = { name: value };
        if (me.key) body.player_key = me.key;
        const joined = await api.joinRoom(code, body);
        profile.save({ ...profile.get(), name: value });
        seatStore.save(code, { token: joined.token, seat: joined.seat ?? null }); // 202: waits for the host
        window.dispatchEvent(new HashChangeEvent("hashchange"));
      } catch (error) {
        message.textContent = error instanceof ApiError ? errorText(error.code, error.message) : t("error.unknown");
      }
    },
  },
  h("h1", {}, t("room.title", { code })),
  h("p", {}, t("join.prompt", { code })),
  h("div.field", {}, h("label", { for: "join-name" }, t("profile.name")), name),
  message,
  h("div.form-buttons", {},
    h("button.primary", { type: "submit" }, t("join.submit")),
    h("a.button.secondary", { href: `#/watch/${code}` }, t("join.watch"))));
  root.replaceChildren(form);
  name.focus();
  return () => {};
}

/** O-APPROVAL with approval_watch: watching waits for the host too, so ask with a name. */
export function mountWatchPrompt(root, code) {
  const me = profile.get();
  const name = h("input#watch-name", { type: "text", value: me.name || "", maxlength: 32, required: true, autocomplete: "nickname" });
  const message = h("p.form-error", { role: "alert" });
  const form = h("form.card-panel.join-panel", {
    onsubmit: async (event) => {
      event.preventDefault();
      const value = name.value.trim();
      if (!value) {
        message.textContent = t("profile.name_needed");
        return;
      }
      try {
        const body = { name: value };
        if (me.key) body.player_key = me.key;
        const watching = await api.watchRoom(code, body);
        profile.save({ ...profile.get(), name: value });
        watchers.save(code, { token: watching.token, spectator: watching.spectator ?? null }); // 202: waits
        window.dispatchEvent(new HashChangeEvent("hashchange"));
      } catch (error) {
        message.textContent = error instanceof ApiError ? errorText(error.code, error.message) : t("error.unknown");
      }
    },
  },
  h("h1", {}, t("watch_ask.title", { code })),
  h("p", {}, t("watch_ask.prompt")),
  h("div.field", {}, h("label", { for: "watch-name" }, t("profile.name")), name),
  message,
  h("div.form-buttons", {}, h("button.primary", { type: "submit" }, t("watch_ask.submit"))));
  root.replaceChildren(form);
  name.focus();
  return () => {};
}
