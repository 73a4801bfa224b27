// The page for a room where this browser holds no seat yet: join with a name, or watch; and,
// in a room that lets spectators in by approval (O-APPROVAL), ask to watch with a name.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { api, seats as seatStore, watchers, profile, ApiError } from "./api.js";
import { errorText } from "./errors.js";

/** A form asking for the profile name; `send(body)` does the rest (its error is shown). */
function namePrompt(root, { id, title, prompt, buttons, send }) {
  const me = profile.get();
  const name = h(`input#${id}`, { type: "text", value: me.name || "", maxlength: 32, required: true, autocomplete: "nickname" });
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
        await send(body);
        profile.save({ ...profile.get(), name: value });
        window.dispatchEvent(new HashChangeEvent("hashchange")); // connect as this person
      } catch (error) {
        message.textContent = error instanceof ApiError ? errorText(error.code, error.message) : t("error.unknown");
      }
    },
  },
  h("h1", {}, title),
  h("p", {}, prompt),
  h("div.field", {}, h("label", { for: id }, t("profile.name")), name),
  message,
  h("div.form-buttons", {}, ...buttons));
  root.replaceChildren(form);
  name.focus();
  return () => {};
}

/** Not seated here yet: join with the profile name, or watch. */
export function mountJoinPrompt(root, code) {
  return namePrompt(root, {
    id: "join-name",
    title: t("room.title", { code }),
    prompt: t("join.prompt", { code }),
    buttons: [h("button.primary", { type: "submit" }, t("join.submit")),
      h("a.button.secondary", { href: `#/watch/${code}` }, t("join.watch"))],
    send: async (body) => {
      const joined = await api.joinRoom(code, body);
      seatStore.save(code, { token: joined.token, seat: joined.seat ?? null }); // 202: waits for the host
    },
  });
}

/** O-APPROVAL with approval_watch: watching waits for the host too, so ask with a name. */
export function mountWatchPrompt(root, code) {
  return namePrompt(root, {
    id: "watch-name",
    title: t("watch_ask.title", { code }),
    prompt: t("watch_ask.prompt"),
    buttons: [h("button.primary", { type: "submit" }, t("watch_ask.submit"))],
    send: async (body) => {
      const watching = await api.watchRoom(code, body);
      watchers.save(code, { token: watching.token, spectator: watching.spectator ?? null }); // 202: waits
    },
  });
}
