// Words for every error code and close code. The server's own message is shown beside ours when
// it says more (for example which house rule is "not implemented yet").
import { t, has } from "./i18n.js";

export function errorText(code, serverMessage) {
  const key = `error.${code}`;
  const ours = has(key) ? t(key) : t("error.unknown");
  if (!serverMessage || serverMessage === code) return ours;
  return `${ours} (${serverMessage})`;
}

export function closeText(code, room, reason) {
  // O-BAN: the server names a ban in the close's reason (app/rooms/bans.py).
  if (code === 4403 && /banned/i.test(reason || "")) return t("error.banned");
  const key = `close.${code}`;
  return has(key) ? t(key, { code: room }) : t("close.other", { code: code ?? "?" });
}
