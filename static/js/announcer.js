// What a screen reader hears at the table: one polite live region speaks what happened (the
// log's own lines, in the page's language) and one assertive region says what cannot wait
// ("your turn", "you can be caught", "you were caught", a refused move). Both are out of sight;
// nothing else on the table page is a live region, so nothing is said twice.
import { h } from "./dom.js";

const KEEP = 6; // lines left in the polite region (older ones have been spoken)
let polite = null;
let assertive = null;

/** Put the two regions in the page (a region must be there before it speaks). */
export function regions() {
  if (!polite || !polite.isConnected) {
    polite = h("div#live-polite.visually-hidden.live-region", { "aria-live": "polite", "aria-relevant": "additions", "data-testid": "live-polite" });
    assertive = h("div#live-assertive.visually-hidden.live-region", { "aria-live": "assertive", "aria-atomic": "true", "data-testid": "live-assertive" });
    document.body.append(polite, assertive);
  }
  return { polite, assertive };
}

/** Say `text` politely, after whatever is being said (a line of the log). */
export function announce(text) {
  if (!text) return;
  const region = regions().polite;
  region.appendChild(h("p", {}, text));
  while (region.children.length > KEEP) region.firstChild.remove();
}

/** Say `text` now, interrupting (your turn, you can be caught, you were caught). */
export function alertNow(text) {
  if (!text) return;
  const region = regions().assertive;
  // Emptied first, so the same words said twice in a row are spoken twice.
  region.replaceChildren();
  setTimeout(() => region.replaceChildren(h("p", {}, text)), 30);
}

/** Forget what was said (leaving the table). */
export function quiet() {
  regions().polite.replaceChildren();
  regions().assertive.replaceChildren();
}
