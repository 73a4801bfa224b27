// English, Korean and Ukrainian. The UNO words are the ones players of each language use (see
// shared/sources): Korean 드로우 덱 / 버린 카드 더미 / 우노!, Ukrainian «Прикуп» / «Скидання» / «УНО!».
import { MESSAGES } from "./i18n-messages.js";

export const LANGUAGES = { en: "English", ko: "한국어", uk: "Українська" };
const STORAGE_KEY = "uno.lang";
let current = pickLanguage();
const listeners = new Set();

function pickLanguage() {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored && stored in LANGUAGES) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

export function lang() {
  return current;
}

export function setLang(code) {
  if (!(code in LANGUAGES)) return;
  current = code;
  localStorage.setItem(STORAGE_KEY, code);
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

/** Call `fn` after each language switch; returns the function that stops it. */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The message `key` in the current language (English as fallback), with {name} filled in. */
export function t(key, params = {}) {
  const text = MESSAGES[current][key] ?? MESSAGES.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : ""));
}

export function has(key) {
  return key in MESSAGES.en;
}

/** "Red 7", "빨강 스킵", "Синя «Візьми дві»"; a Wild Customizable shows its host-given label. */
export function cardName(text, customLabels) {
  if (text.startsWith("W")) {
    const custom = /^WC([123])$/.exec(text);
    const base = t(`card.${text}`);
    if (custom && customLabels && customLabels[Number(custom[1]) - 1]) {
      return `${base}: ${customLabels[Number(custom[1]) - 1]}`;
    }
    return base;
  }
  const rank = text.slice(1);
  const rankName = /^\d$/.test(rank) ? rank : t(`card.${rank}`);
  return t("card.colored", { color: t(`cardcolor.${text[0]}`), rank: rankName });
}

document.documentElement.lang = current;
