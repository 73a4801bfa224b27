// Cards that move: from a hand (or a seat) to the discard pile, and from the draw pile into a
// hand. The Web Animations API on a short-lived copy; nothing moves under prefers-reduced-motion.

export function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

/** Fly `face` (a card element, not yet in the page) from `from` to `to` (DOMRects). */
export function flyCard(face, from, to, { width = to?.width, duration = 380 } = {}) {
  if (reducedMotion() || !from || !to || !face.animate) return;
  face.classList.add("flying-card");
  face.setAttribute("aria-hidden", "true");
  face.removeAttribute("aria-label");
  const left = to.left + (to.width - width) / 2;
  const top = to.top + (to.height - width * 1.5) / 2;
  Object.assign(face.style, { left: `${left}px`, top: `${top}px` });
  face.style.setProperty("--card-w", `${width}px`);
  document.body.appendChild(face);
  const scale = Math.max(0.2, Math.min(3, from.width / width));
  const dx = from.left + from.width / 2 - (left + width / 2);
  const dy = from.top + from.height / 2 - (top + width * 0.75);
  const animation = face.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(${scale}) rotate(-8deg)`, opacity: 0.85 },
      { transform: "none", opacity: 1 }],
    { duration, easing: "cubic-bezier(.2,.7,.3,1)" });
  const done = () => face.remove();
  animation.addEventListener("finish", done);
  animation.addEventListener("cancel", done);
  setTimeout(done, duration + 200); // a hidden tab may never finish an animation
}

/** A card just put into the hand slides there from `from` (the draw pile). */
export function slideIn(element, from, delay = 0) {
  if (reducedMotion() || !element?.animate || !from) return;
  const to = element.getBoundingClientRect();
  element.animate(
    [{ transform: `translate(${from.left - to.left}px, ${from.top - to.top}px) scale(.8)`, opacity: 0.4 },
      { transform: "none", opacity: 1 }],
    { duration: 420, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
}

export function rectOf(element) {
  return element ? element.getBoundingClientRect() : null;
}
