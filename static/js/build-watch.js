// A deploy changed the server's build (state.build): reload this page for the new client, but
// only between matches, never in the middle of one (then after its match_over).
let first = null;
let pendingReload = false;

/** Call with each state the table holds (after a state frame or an event). */
export function noteBuild(state) {
  if (!state || state.you?.waiting === true) return;
  if (typeof state.build === "string" && state.build) {
    if (first === null) first = state.build;
    else if (state.build !== first) pendingReload = true;
  }
  if (pendingReload && (state.phase === "lobby" || state.phase === "match_over")) location.reload();
}
