// The audience: the reactions anyone may send (a fixed set), floating over every table for a
// moment; the spectators' own chat (players never get it: no coaching from the stands).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatName } from "./describe.js";
import { reducedMotion } from "./motion.js";

export const REACTIONS = ["👏", "🔥", "😂", "😮", "😱", "🎉", "👀", "💀"];
const FLOAT_MS = 3000;

/** The row of reaction buttons. */
export function reactionBar(onReact) {
  return h("div.reactions", { role: "group", "aria-label": t("react.label") },
    REACTIONS.map((emoji) => h("button.reaction", {
      type: "button", key: `react-${emoji}`, title: t("react.send", { emoji }), "aria-label": t("react.send", { emoji }),
      onclick: () => onReact(emoji),
    }, emoji)));
}

/** A `reaction` event: the emoji (and who sent it) floats up over the table, then goes. */
export function floatReaction(layer, event, state, mySeat) {
  if (!layer) return;
  const who = event.seat === null || event.seat === undefined ? t("react.spectator") : seatName(state, event.seat, mySeat);
  const item = h("span.reaction-float", { role: "img", "aria-label": t("react.from", { emoji: event.emoji, name: who }),
    style: { left: `${8 + Math.random() * 80}%` }, class: reducedMotion() ? "still" : "" },
  h("span.reaction-emoji", { "aria-hidden": "true" }, event.emoji), h("span.reaction-who", { "aria-hidden": "true" }, who));
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
