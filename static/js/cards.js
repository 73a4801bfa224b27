// Cards as PROTOCOL.md strings ("R7", "GS", "B+2", "W", "W+4", "WS", "WC1", "WB"): parsing,
// hand order and the card element itself. Which card may be played is the server's to say
// (O-LEGAL: `you.legal`), never this module's.
import { h } from "./dom.js";
import { t, cardName } from "./i18n.js";

export const COLORS = ["R", "Y", "G", "B"];
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

const SYMBOLS = { S: "⊘", R: "⇄", "+2": "+2", W: "", "W+4": "+4", WS: "⤨", WB: "+10" };

function symbol(card) {
  if (card.rank.startsWith("WC")) return "✎" + card.rank.slice(2);
  return SYMBOLS[card.rank] ?? card.rank;
}

/**
 * A card face. `tag` "button" for a card in hand (playable or not), "div" for a pile or a
 * revealed hand. `customLabels` names the Wild Customizable cards (rules.custom_cards).
 */
export function cardFace(text, { tag = "div", size = "", attrs = {}, customLabels } = {}) {
  const card = parseCard(text);
  const name = cardName(text, customLabels);
  const sym = symbol(card);
  const classes = ["card", card.wild ? "wild" : `c-${card.color}`, size].filter(Boolean).join(".");
  return h(
    `${tag}.${classes}`,
    { "aria-label": name, title: name, "data-card": text, ...attrs },
    h("span.corner.tl", { "aria-hidden": "true" }, sym || "W"),
    h("span.oval", { "aria-hidden": "true" }, h("span.sym", {}, sym)),
    h("span.corner.br", { "aria-hidden": "true" }, sym || "W"),
  );
}

export function cardBack({ size = "", label } = {}) {
  return h(`div.card.back${size ? "." + size : ""}`, { "aria-label": label || t("card.back") },
    h("span.oval.logo", { "aria-hidden": "true" }, "UNO"));
}
