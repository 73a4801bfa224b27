// The audience: the reactions anyone may send (a fixed set), floating over every table for a
// moment; the spectators' own chat (players never get it: no coaching from the stands).
// Reactions are emoji; where the machine has no emoji font (a TV box, a kiosk) each shows its
// word instead, and a screen reader hears the word either way.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatName } from "./describe.js";
import { reducedMotion } from "./motion.js";

export const REACTIONS = ["👏", "🔥", "😂", "😮", "😱", "🎉", "👀", "💀"];
const NAMES = { "👏": "clap", "🔥": "fire", "😂": "laugh", "😮": "wow", "😱": "scream", "🎉": "party", "👀": "eyes", "💀": "skull" };
const FLOAT_MS = 3000;
let emojiFont = null;

/** Whether this machine draws emoji: an emoji drawn on a canvas leaves coloured pixels. */
export function drawsEmoji() {
  if (emojiFont !== null) return emojiFont;
  try {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 24;
    const ctx = canvas.getContext("2d", { willReadFrequently: true });
    ctx.font = "20px sans-serif";
    ctx.textBaseline = "top";
    ctx.fillText("🔥", 0, 0);
    const pixels = ctx.getImageData(0, 0, 24, 24).data;
    emojiFont = false;
    for (let i = 0; i < pixels.length; i += 4) {
      if (pixels[i + 3] && Math.abs(pixels[i] - pixels[i + 1]) + Math.abs(pixels[i + 1] - pixels[i + 2]) > 60) {
        emojiFont = true;
        break;
      }
    }
  } catch {
    emojiFont = false;
  }
  return emojiFont;
}

/** A reaction's word in the page's language ("clap", "박수", "оплески"). */
export function reactionName(emoji) {
  return NAMES[emoji] ? t(`react.${NAMES[emoji]}`) : emoji;
}

function reactionFace(emoji) {
  return drawsEmoji() ? h("span.reaction-emoji", { "aria-hidden": "true" }, emoji)
    : h("span.reaction-word", { "aria-hidden": "true" }, reactionName(emoji));
}

/** The row of reaction buttons. */
export function reactionBar(onReact) {
  return h("div.reactions", { role: "group", "aria-label": t("react.label") },
    REACTIONS.map((emoji) => h("button.reaction", {
      type: "button", key: `react-${emoji}`, "aria-label": t("react.send", { emoji: reactionName(emoji) }),
      onclick: () => onReact(emoji),
    }, reactionFace(emoji))));
}

/** A `reaction` event: the emoji (and who sent it) floats up over the table, then goes. */
export function floatReaction(layer, event, state, mySeat) {
  if (!layer) return;
  const who = event.seat === null || event.seat === undefined ? t("react.spectator") : seatName(state, event.seat, mySeat);
  const item = h("span.reaction-float", { role: "img", "aria-label": t("react.from", { emoji: reactionName(event.emoji), name: who }),
    "data-emoji": event.emoji, style: { left: `${8 + Math.random() * 80}%` }, class: reducedMotion() ? "still" : "" },
  reactionFace(event.emoji), h("span.reaction-who", { "aria-hidden": "true" }, who));
  layer.appendChild(item);
  while (layer.children.length > 12) layer.firstChild.remove();
  setTimeout(() => item.remove(), FLOAT_MS);
}

/** The chat box: players talk to the table; spectators to the other spectators. */
export function chatForm(spectator, onSend) {
  const input = h("input", { type: "text", maxlength: 300, autocomplete: "off",
    "aria-label": spectator ? t("chat.spectators_label") : t("chat.label") });
  const button = h("button.secondary", { type: "submit" }, t("chat.send"));
  const form = h("form.chat", {
    onsubmit: (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      onSend(text).then(() => (input.value = "")).catch(() => {});
    },
  }, input, button);
  const relabel = () => {
    input.setAttribute("aria-label", spectator ? t("chat.spectators_label") : t("chat.label"));
    input.placeholder = spectator ? t("chat.spectators_placeholder") : "";
    button.textContent = t("chat.send");
  };
  relabel();
  return { form, relabel };
}
