// Every move at the table by keys alone, and the "?" overlay that lists them. The keys only
// send what the server lists for this seat (O-LEGAL), as the buttons do; none works while
// typing in a field.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { COLORS } from "./colors.js";
import { icon } from "./icons.js";

// [keys shown, what they do]; the letters are the same in every language.
export const KEY_LIST = [
  ["← →", "keys.move"], ["Enter", "keys.play"], ["D", "keys.draw"], ["K", "keys.keep"],
  ["P", "keys.pass"], ["U", "keys.uno"], ["C", "keys.catch"], ["X", "keys.challenge"],
  ["A", "keys.accept"], ["1 2 3 4", "keys.colors"], ["Esc", "keys.cancel"], ["H", "keys.hand"],
  ["L", "keys.log"], ["?", "keys.help"],
];

/** The overlay: a modal <dialog> (it takes focus, Esc closes it, focus goes back). */
export function keysDialog() {
  const dialog = h("dialog.keys-dialog", { "aria-labelledby": "keys-title" },
    h("div.dialog-head", {},
      h("h2#keys-title", {}, t("keys.title")),
      h("button.secondary.icon-button", { type: "button", "aria-label": t("table.close"), onclick: () => dialog.close() },
        icon("close"))),
    h("dl.key-list", {}, KEY_LIST.map(([keys, what]) => h("div.key-row", {},
      h("dt", {}, keys.split(" ").map((k) => h("kbd", {}, k))),
      h("dd", {}, t(what))))));
  return dialog;
}

const typing = (target) => target?.closest?.("input, select, textarea, [contenteditable]");

/** A key pressed at the table: do the move it names when the server lists it. True: handled. */
export function tableKey(view, event) {
  if (typing(event.target) || event.ctrlKey || event.metaKey || event.altKey) return false;
  const m = view.model;
  const a = view.actions;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (key === "?") return view.showKeys(), true;
  if (key === "l") return view.toggleDrawer(), true;
  if (key === "h") return view.focusHand(), true;
  if (key === "Escape") return view.escape();
  const pickingColor = view.ui.pickColorFor || (m.state?.pending?.kind === "choose_color" && m.allows("choose_color"));
  if (pickingColor && /^[1-4]$/.test(key)) {
    view.root.querySelector(`.color-picker button[data-color="${COLORS[Number(key) - 1]}"]`)?.click();
    return true;
  }
  const stack = m.state?.pending?.kind === "stack";
  const catchable = m.catchableSeats();
  const moves = {
    d: () => (m.allows("draw") ? a.draw() : stack && m.allows("accept") ? a.accept() : null),
    k: () => (m.allows("keep") ? a.keep() : null),
    p: () => (m.allows("pass") ? a.pass() : null),
    u: () => (m.allows("uno") ? a.callUno() : null),
    c: () => (catchable.length ? a.catchSeat(catchable[0]) : null),
    x: () => (m.allows("challenge") ? a.challenge() : null),
    a: () => (m.allows("accept") ? a.accept() : null),
  };
  if (!(key in moves)) return false;
  moves[key]();
  return true;
}

/** Arrow keys, Home and End move through the hand (one card at a time in the Tab order). */
export function handKey(event) {
  const card = event.target.closest?.("ul.hand button.card");
  if (!card) return false;
  const cards = [...card.closest("ul.hand").querySelectorAll("button.card")];
  const at = cards.indexOf(card);
  const next = { ArrowLeft: at - 1, ArrowUp: at - 1, ArrowRight: at + 1, ArrowDown: at + 1, Home: 0, End: cards.length - 1 }[event.key];
  if (next === undefined) return false;
  const target = cards[Math.max(0, Math.min(cards.length - 1, next))];
  rove(cards, target);
  target.focus();
  target.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  return true;
}

/** Only `target` of `cards` is in the Tab order. */
export function rove(cards, target) {
  for (const c of cards) c.tabIndex = c === target ? 0 : -1;
}
