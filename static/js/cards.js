// Cards as PROTOCOL.md strings ("R7", "GS", "B+2", "W", "W+4", "WS", "WC1", "WB"): parsing,
// hand order and the card element itself. Which card may be played is the server's to say
// (O-LEGAL: `you.legal`), never this module's.
import { h } from "./dom.js";
import { t, cardName } from "./i18n.js";
import { COLORS, colorClass, colorMark } from "./colors.js";
import { icon } from "./icons.js";
const RANK_ORDER = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2"];
const WILD_ORDER = ["W", "W+4", "WS", "WC1", "WC2", "WC3", "WB"];

export function parseCard(text) {
  if (text.startsWith("W")) return { text, color: null, rank: text, wild: true };
  return { text, color: text[0], rank: text.slice(1), wild: false };
}

function orderKey(text) {
  const card = parseCard(text);
  if (card.wild) return 100 + WILD_ORDER.indexOf(text);
  return COLORS.indexOf(card.color) * 20 + RANK_ORDER.indexOf(card.rank);
}

export function sortHand(cards) {
  return [...cards].sort((a, b) => orderKey(a) - orderKey(b));
}

const TEXT_SYMBOLS = { "+2": "+2", "W+4": "+4", WB: "+10" };
const ICON_SYMBOLS = { S: "skip", R: "reverse", WS: "shuffle" };

/** What a card shows in its corners and centre: its number, "+2", or an icon (Skip, ...). */
function symbol(card) {
  if (card.rank.startsWith("WC")) return [icon("pencil"), card.rank.slice(2)];
  if (ICON_SYMBOLS[card.rank]) return icon(ICON_SYMBOLS[card.rank]);
  return TEXT_SYMBOLS[card.rank] ?? (card.rank === "W" ? "" : card.rank);
}

/**
 * A card face: its colour (with its shape in the corners and the centre, colors.js), its
 * symbol, and its name for a screen reader. `tag` "button" for a card in hand, "div" for a
 * pile or a revealed hand (then an image named by the card). `customLabels` names the Wild
 * Customizable cards (rules.custom_cards).
 */
export function cardFace(text, { tag = "div", size = "", attrs = {}, customLabels } = {}) {
  const card = parseCard(text);
  const name = cardName(text, customLabels);
  const classes = ["card", card.wild ? "wild" : colorClass(card.color), size].filter(Boolean).join(".");
  const corner = (where) => h(`span.corner.${where}`, { "aria-hidden": "true" },
    h("span.corner-sym", {}, symbol(card) || "W"), colorMark(card.color, "corner-mark"));
  return h(
    `${tag}.${classes}`,
    { "aria-label": name, title: name, "data-card": text, role: tag === "button" ? false : "img", ...attrs },
    corner("tl"),
    h("span.oval", { "aria-hidden": "true" }, h("span.sym", {}, symbol(card)), colorMark(card.color, "centre-mark")),
    corner("br"),
  );
}

export function cardBack({ size = "", label } = {}) {
  return h(`div.card.back${size ? "." + size : ""}`, { role: "img", "aria-label": label || t("card.back") },
    h("span.oval.logo", { "aria-hidden": "true" }, "UNO"));
}
