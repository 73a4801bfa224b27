// Making a play from clicks: one card, or several at once (H-MULTI), then the wild's color and
// the target of a 7 or a 5. Which cards may be played is the server's list (O-LEGAL); this only
// gathers what the play message needs.
import { parseCard, sortHand } from "./cards.js";
import { canAdd } from "./table-panels.js";

/** A click on a card of the hand (`index` in the sorted hand; null: the drawn-card prompt). */
export function chooseCard(view, card, index) {
  const m = view.model;
  if (m.allows("give")) {
    view.actions.give(card);
    return;
  }
  const selection = view.ui.selection;
  if (selection && index !== null) {
    const hand = sortHand(m.hand);
    if (index === selection.first) view.ui.selection = null;
    else if (selection.more.includes(index)) selection.more = selection.more.filter((i) => i !== index);
    else if (canAdd(m, hand, selection, index)) selection.more.push(index);
    view.render();
    return;
  }
  // H-MULTI: a card others may follow starts a selection (under H-NOHINTS any card may).
  const several = m.followers(card).length > 0
    || (m.noHints && m.state.rules?.multi_play && m.myMove && !m.state.pending && m.hand.length > 1);
  if (several && index !== null) {
    view.ui.selection = { first: index, card, more: [] };
    view.render();
    view.root.querySelector(".prompt.multi button")?.focus();
    return;
  }
  startPlay(view, { card, more: [] });
}

/** H-MULTI: play the chosen cards, in the order they were chosen. */
export function playSelection(view) {
  const hand = sortHand(view.model.hand);
  const selection = view.ui.selection;
  view.ui.selection = null;
  if (!selection) return;
  startPlay(view, { card: selection.card, more: selection.more.map((i) => hand[i]) });
}

/** The color of a wild and the target of a 7 or a 5: the server names the card, we add these. */
function startPlay(view, play) {
  const rules = view.model.state.rules || {};
  const parsed = parseCard(play.card);
  const custom = /^WC([123])$/.exec(play.card);
  const customEffect = custom ? rules.custom_cards?.[Number(custom[1]) - 1]?.effect : null;
  const last = view.model.hand.length === 1 + play.more.length; // the last card moves no hand
  const rank = parseCard(play.more.length ? play.more[play.more.length - 1] : play.card).rank;
  const needsTarget = !last && ((rules.seven_zero && rank === "7" && rules.seven_swap !== "next")
    || (rules.five_exchange && rank === "5") || customEffect === "swap_hands");
  const wantsColor = parsed.wild && !rules.color_wheel;
  if (needsTarget) {
    view.ui.pickTargetFor = { ...play, needsColor: wantsColor };
  } else if (wantsColor) {
    view.ui.pickColorFor = play;
  } else {
    finishPlay(view, play);
    return;
  }
  view.render();
  view.root.querySelector(".prompt button")?.focus();
}

/** Send the play once its color and target are known. */
export function finishPlay(view, play) {
  if (play.needsColor && !play.color) {
    view.ui.pickTargetFor = null;
    view.ui.pickColorFor = { ...play, needsColor: false };
    view.render();
    return;
  }
  view.clearPicks();
  const message = { type: "play", card: play.card };
  if (view.model.seq !== null) message.seq = view.model.seq;
  if (play.more?.length) message.more = play.more;
  if (play.color) message.color = play.color;
  if (play.target !== undefined && play.target !== null) message.target = play.target;
  view.send(message).catch(() => {});
  view.render();
}
