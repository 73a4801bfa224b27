// What the table's buttons and keys do: each a command to the room (the game's name the last
// seq seen), or a change of the view's own state (a half-made play, the revealed hand).
import { t } from "./i18n.js";
import { seats as seatStore, watchers, api, profile, ApiError } from "./api.js";
import { chooseCard, playSelection, finishPlay } from "./table-play.js";

export function tableActions(view) {
  // Game commands name the last seq seen: a race lost to a faster player is answered
  // "too late" instead of a confusing "not your turn".
  const fire = (message) => view.send(message).catch(() => {});
  const move = (message) => fire(view.model.seq === null ? message : { ...message, seq: view.model.seq });
  return {
    draw: () => move({ type: "draw" }),
    keep: () => move({ type: "keep" }),
    pass: () => move({ type: "pass" }),
    callUno: () => move({ type: "uno" }),
    catchSeat: (seat) => move({ type: "catch", target: seat }),
    challenge: () => move({ type: "challenge" }),
    accept: () => move({ type: "accept" }),
    chooseColor: (color) => move({ type: "choose_color", color }),
    give: (card) => move({ type: "give", card }),
    slap: () => move({ type: "slap" }),
    react: (emoji) => fire({ type: "react", emoji }),
    nextRound: () => fire({ type: "next_round" }),
    start: () => fire({ type: "start" }),
    rematch: () => fire({ type: "rematch" }),
    addBot: () => fire({ type: "add_bot" }),
    kick: (seat) => fire({ type: "kick", seat }),
    back: () => fire({ type: "back" }),
    admit: (request) => fire({ type: "admit", request }),
    deny: (request) => fire({ type: "deny", request }),
    queueOrder: (order) => fire({ type: "queue_order", order }),
    unqueue: (spectator) => fire({ type: "unqueue", spectator }),
    // O-BAN never comes undone: ask first.
    ban: (who, name) => window.confirm(t("ban.confirm", { name })) && fire({ type: "ban", ...who }),
    joinQueue: () => fire({ type: "queue" }),
    leaveQueue: () => fire({ type: "unqueue" }),
    watchAndQueue: async (name) => {
      if (!name) return view.flash(t("profile.name_needed"));
      try {
        const body = { name };
        const key = profile.get().key;
        if (key) body.player_key = key;
        const watching = await api.watchRoom(view.code, body);
        watchers.save(view.code, { token: watching.token, spectator: watching.spectator, queueNext: true });
        window.dispatchEvent(new HashChangeEvent("hashchange")); // connect again as this person
      } catch (error) {
        view.showError(error instanceof ApiError ? error : { code: "unknown" });
      }
    },
    leave: () => view.send({ type: "leave" }).then(() => {
      seatStore.forget(view.code);
      location.hash = "#/";
    }).catch(() => {}),
    setRules: (preset, rules) => view.send({ type: "rules", preset, rules })
      .then(() => view.flash(t("room.rules_sent"))),
    copyLink: (link) => view.copyLink(link),
    closeReveal: () => {
      view.model.reveal = null;
      view.render();
    },
    chooseCard: (card, index) => chooseCard(view, card, index),
    playSelection: () => playSelection(view),
    finishPlay: (play) => finishPlay(view, play),
    cancelPick: () => {
      view.clearPicks();
      view.render();
    },
  };
}
