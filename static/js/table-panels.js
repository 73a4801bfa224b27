// Your hand and the prompts that ask you something (color, target, challenge, drawn card,
// several cards at once), and the lobby with the host's controls. Every card and button is
// offered as the server's list of legal moves says (O-LEGAL: `model.legal`).
import { h, stable } from "./dom.js";
import { t, cardName } from "./i18n.js";
import { cardFace, sortHand, parseCard } from "./cards.js";
import { COLORS, colorButton, teamBadge, teamClass } from "./colors.js";
import { seatName } from "./describe.js";
import { timerRing } from "./table-seats.js";
import { rulesEditor } from "./rules-form.js";

export function labelsOf(state) {
  return (state.rules?.custom_cards || []).map((c) => c.label);
}

/** H-MULTI: may the card at `index` join the selection started with `selection.first`? */
export function canAdd(model, hand, selection, index) {
  if (index === selection.first || selection.more.includes(index)) return false;
  if (model.noHints) return true; // the server lists nothing: let the player try
  const card = hand[index];
  const allowed = model.followers(selection.card).filter((c) => c === card).length;
  const taken = selection.more.filter((i) => hand[i] === card).length;
  return taken < allowed;
}

/** How one card of the hand is offered: its class, whether it is enabled, its label. */
function cardOffer(model, ui, hand, index) {
  const card = hand[index];
  const selection = ui.selection;
  if (selection) {
    if (index === selection.first || selection.more.includes(index)) return { cls: "selected", enabled: true };
    return canAdd(model, hand, selection, index) ? { cls: "can-add", enabled: true } : { cls: "", enabled: false };
  }
  if (model.allows("give")) return { cls: model.mayGive(card) ? "giveable" : "", enabled: model.mayGive(card) };
  if (model.isJumpIn(card)) return { cls: "jump-in", enabled: true, jump: true };
  if (model.isPlayable(card)) return { cls: "playable", enabled: true };
  return { cls: "", enabled: model.mayTry() }; // H-NOHINTS: nothing highlighted, anything tried
}

export function handArea(model, ui, actions) {
  const s = model.state;
  const hand = sortHand(model.hand);
  const labels = labelsOf(s);
  const cards = hand.map((card, index) => {
    const offer = cardOffer(model, ui, hand, index);
    const name = cardName(card, labels);
    // Cards that cannot be played now stay in the hand's arrow-key order (aria-disabled, not
    // disabled): a screen reader can still read the whole hand.
    return h("li", { role: "none" },
      cardFace(card, {
        tag: "button",
        customLabels: labels,
        attrs: {
          key: `hand-${card}-${index}`,
          class: offer.cls,
          tabindex: "-1",
          "aria-disabled": offer.enabled ? false : "true",
          "aria-pressed": ui.selection ? String(offer.cls === "selected") : false,
          "aria-label": offer.jump ? `${name}: ${t("table.jump_in")}` : name,
          onclick: () => offer.enabled && actions.chooseCard(card, index),
        },
      }));
  });
  const stack = s.pending?.kind === "stack" && s.pending.seat === model.mySeat ? s.pending : null;
  const me = s.seats[model.mySeat] || {};
  const called = me.uno && hand.length === 1;
  const unoReady = model.allows("uno");
  const key = (letter) => h("kbd.key-hint", { "aria-hidden": "true" }, letter);
  return h("section.hand-area", { "aria-labelledby": "hand-title", class: model.myMove ? "my-move" : "" },
    h("div.hand-bar", {},
      h("h2#hand-title.hand-title", { tabindex: "-1" }, t("table.hand_count", { n: hand.length })),
      h("div.hand-notes", {}, hints(model, hand, me)),
      h("div.hand-actions", {},
        model.allows("draw")
          ? h("button.secondary.draw-button", { key: "draw", onclick: () => actions.draw(), "aria-keyshortcuts": "D" }, t("table.draw"), key("D"))
          : null,
        stack && model.allows("accept")
          ? h("button.secondary.draw-button", { key: "take", onclick: () => actions.accept(), "aria-keyshortcuts": "D" },
              t("table.take", { n: stack.amount ?? "" }), key("D"))
          : null,
        model.allows("pass")
          ? h("button.secondary.pass-button", { key: "pass", onclick: () => actions.pass(), "aria-keyshortcuts": "P" }, t("table.pass"), key("P"))
          : null,
        model.drawnCard && model.allows("keep")
          ? h("button.secondary", { key: "keep", onclick: () => actions.keep(), "aria-keyshortcuts": "K" }, t("table.keep"), key("K"))
          : null,
        s.rules?.uno_call === "off" ? null
          : h("button.uno-button", {
              key: "uno", onclick: () => actions.callUno(), disabled: !unoReady, "aria-keyshortcuts": "U",
              class: unoReady ? "ready" : "", "aria-pressed": called ? "true" : "false",
            }, called ? t("table.uno_called") : t("table.uno")))),
    h("ul.hand", { role: "group", "aria-label": t("table.your_hand"), class: hand.length > 20 ? "many" : "" }, cards));
}

function hints(model, hand, me) {
  const lines = [];
  if (hand.some((card) => model.isJumpIn(card))) lines.push(h("p.jump-hint", {}, t("table.jump_hint")));
  if (model.allows("pass")) lines.push(h("p.hand-note", {}, t("table.pass_hint")));
  if (model.noHints && model.myMove) lines.push(h("p.hand-note", {}, t("table.no_hints")));
  if (Array.isArray(me.hand)) lines.push(h("p.hand-note", {}, t("table.hand_shown")));
  return lines;
}

/** A question that takes the focus (the table gives it back when it goes): `kind` names it. */
function dialog(kind, title, body) {
  return h(`div.prompt.${kind}`, { role: "dialog", "aria-labelledby": `${kind}-title`, "data-dialog": kind },
    h(`p#${kind}-title.prompt-title`, {}, title), body);
}

export function colorPicker(title, onPick, onCancel) {
  return dialog("color-picker", title, [
    h("div.color-buttons", {},
      COLORS.map((c) => colorButton(c, { key: `color-${c}`, "data-color": c, onclick: () => onPick(c) }))),
    onCancel ? h("button.link", { key: "color-cancel", onclick: onCancel, "aria-keyshortcuts": "Escape" }, t("table.cancel")) : null,
  ]);
}

export function seatPicker(model, title, onPick, onCancel, optional = false) {
  const s = model.state;
  const others = s.seats.map((_, i) => i)
    .filter((i) => i !== model.mySeat && !s.seats[i].out && (!optional || s.seats[i].cards));
  return dialog("seat-picker", title, [
    h("div.seat-buttons", {},
      others.map((seat) => h("button.secondary", { key: `target-${seat}`, onclick: () => onPick(seat) },
        `${seatName(s, seat)} · ${t("seat.cards", { n: s.seats[seat].cards ?? 0 })}`)),
      optional ? h("button.secondary", { key: "target-none", onclick: () => onPick(null) }, t("table.no_exchange")) : null),
    h("button.link", { key: "target-cancel", onclick: onCancel, "aria-keyshortcuts": "Escape" }, t("table.cancel")),
  ]);
}

/** H-MULTI: the cards chosen so far, and the button that plays them in that order. */
function selectionPrompt(model, ui, actions) {
  const hand = sortHand(model.hand);
  const labels = labelsOf(model.state);
  const chosen = [ui.selection.first, ...ui.selection.more].map((i) => hand[i]);
  return h("div.prompt.multi", { role: "group", "aria-label": t("table.multi_title"), "data-testid": "multi-prompt" },
    h("p.prompt-title", {}, t("table.multi_title")),
    h("p.multi-cards", {}, chosen.map((c) => cardName(c, labels)).join(" → ")),
    h("div.prompt-buttons", {},
      h("button.primary", { key: "play-selected", onclick: () => actions.playSelection() },
        chosen.length === 1 ? t("table.play_one") : t("table.play_many", { n: chosen.length })),
      h("button.link", { key: "selection-cancel", onclick: () => actions.cancelPick() }, t("table.cancel"))));
}

/** What the table asks this seat now, if anything (null: nothing to show). */
export function promptArea(model, ui, actions) {
  const s = model.state;
  const me = model.mySeat;
  const p = s.pending;
  const labels = labelsOf(s);
  if (ui.pickColorFor) {
    return colorPicker(t("table.choose_color_for", { card: cardName(ui.pickColorFor.card, labels) }),
      (color) => actions.finishPlay({ ...ui.pickColorFor, color }), () => actions.cancelPick());
  }
  if (ui.pickTargetFor) {
    const five = parseCard(ui.pickTargetFor.card).rank === "5";
    const title = five ? t("table.pick_exchange") : t("table.pick_swap");
    return seatPicker(model, title, (target) => actions.finishPlay({ ...ui.pickTargetFor, target }),
      () => actions.cancelPick(), five);
  }
  if (ui.selection) return selectionPrompt(model, ui, actions);
  const parts = [];
  if (model.reveal) {
    parts.push(h("div.prompt.reveal", { role: "group", "aria-labelledby": "reveal-title" },
      h("p#reveal-title.prompt-title", {}, t("table.revealed", { name: seatName(s, model.reveal.offender) })),
      h("div.reveal-cards", {}, sortHand(model.reveal.hand).map((c) => cardFace(c, { size: "small", customLabels: labels }))),
      h("button.link", { key: "reveal-close", onclick: () => actions.closeReveal() }, t("table.close"))));
  }
  if (model.slap) {
    parts.push(model.allows("slap")
      ? h("div.prompt.slap", { role: "alertdialog", "aria-labelledby": "slap-title", "data-dialog": "slap" },
          h("div.prompt-head", {}, timerRing(), h("p#slap-title.prompt-title", {}, t("table.slap_now"))),
          h("button.slap-button", { key: "slap", onclick: () => actions.slap() }, t("table.slap")))
      : h("p.prompt.info", {}, t("table.slap_wait")));
  }
  if (p && s.phase === "playing" && !model.slap) parts.push(pendingPrompt(model, actions, p, me, labels));
  if (s.silence) parts.push(h("p.prompt.silence", {}, t("table.silence")));
  return parts.filter(Boolean).length ? h("div.prompts", {}, parts) : null;
}

function pendingPrompt(model, actions, p, me, labels) {
  const s = model.state;
  if (p.kind === "choose_color" && model.allows("choose_color")) {
    return colorPicker(t("table.choose_first_color"), (color) => actions.chooseColor(color));
  }
  if (p.kind === "challenge" && p.seat === me) {
    return h("div.prompt.challenge", { role: "alertdialog", "aria-labelledby": "challenge-title", "data-dialog": "challenge" },
      h("div.prompt-head", {}, timerRing(), h("p#challenge-title.prompt-title", {},
        t("table.challenge_prompt", { name: seatName(s, p.offender) }))),
      h("div.prompt-buttons", {},
        model.allows("challenge") ? h("button.danger", { key: "challenge", onclick: () => actions.challenge(), "aria-keyshortcuts": "X" }, t("table.challenge")) : null,
        model.allows("accept") ? h("button.secondary", { key: "accept", onclick: () => actions.accept(), "aria-keyshortcuts": "A" }, t("table.accept", { n: p.amount ?? 4 })) : null));
  }
  if (p.kind === "challenge") return h("p.prompt.info", {}, t("table.challenge_wait", { name: seatName(s, p.seat) }));
  if (p.kind === "play_drawn" && p.seat === me && model.drawnCard) {
    const card = model.drawnCard;
    return h("div.prompt.drawn", { role: "dialog", "aria-labelledby": "drawn-title", "data-dialog": "drawn" },
      h("div.prompt-head", {}, cardFace(card, { size: "small", customLabels: labels }),
        h("p#drawn-title.prompt-title", {}, t("table.drew_playable", { card: cardName(card, labels) }))),
      h("div.prompt-buttons", {},
        model.isPlayable(card) || model.noHints
          ? h("button.primary", { key: "play-drawn", onclick: () => actions.chooseCard(card, null) }, t("table.play_drawn")) : null,
        model.allows("keep") ? h("button.secondary", { key: "keep-drawn", onclick: () => actions.keep(), "aria-keyshortcuts": "K" }, t("table.keep")) : null));
  }
  if (p.kind === "stack" && p.seat === me) {
    const amount = p.amount ?? "";
    return h("div.prompt.stack", { role: "alertdialog", "aria-labelledby": "stack-title", "data-dialog": "stack" },
      h("div.prompt-head", {}, timerRing(), h("p#stack-title.prompt-title", {}, t("table.stack_prompt", { n: amount }))),
      h("div.prompt-buttons", {},
        model.allows("challenge") ? h("button.danger", { key: "stack-challenge", onclick: () => actions.challenge(), "aria-keyshortcuts": "X" }, t("table.challenge")) : null,
        model.allows("accept") ? h("button.secondary", { key: "stack-take", onclick: () => actions.accept(), "aria-keyshortcuts": "A" }, t("table.take", { n: amount })) : null));
  }
  if (p.kind === "stack") return h("p.prompt.info", {}, t("table.stack_wait", { name: seatName(s, p.seat), n: p.amount ?? "" }));
  if (p.kind === "exchange" && model.allows("give")) {
    const other = p.seat === me ? p.target : p.seat;
    return h("p.prompt.info.give", {}, t("table.give_to", { name: seatName(s, other) }));
  }
  if (p.kind === "exchange") {
    return h("p.prompt.info", {}, t("table.exchange_wait", { name: seatName(s, p.seat), target: seatName(s, p.target) }));
  }
  return null;
}

export function lobbyPanel(model, ui, actions) {
  const s = model.state;
  const isHost = model.mySeat !== null && s.host === model.mySeat;
  const link = `${location.origin}${location.pathname}#/room/${s.code || ui.code}`;
  const seated = s.seats.length;
  return h("section.lobby-panel", { "aria-labelledby": "lobby-title" },
    h("h2#lobby-title", {}, t("room.seats")),
    h("ul.lobby-seats", {}, s.seats.map((info, seat) => h("li", { class: teamClass(info.team) },
      h("span.seat-name", {}, seatName(s, seat, model.mySeat)),
      h("span.badges", {},
        teamBadge(info.team),
        s.host === seat ? h("span.badge.host", {}, t("seat.host")) : null,
        info.bot ? h("span.badge.bot", {}, t("seat.bot")) : null,
        info.connected === false && !info.bot ? h("span.badge.offline", {}, t("seat.offline")) : null),
      isHost && seat !== model.mySeat
        ? h("button.link.kick", { key: `kick-${seat}`, onclick: () => actions.kick(seat) },
            t("room.kick", { name: seatName(s, seat) }))
        : null))),
    s.rules?.teams ? h("p.hint", {}, t("room.teams_hint")) : null,
    h("div.share", {},
      h("p", {}, t("room.share_hint", { code: s.code || ui.code })),
      h("div.share-row", {},
        h("input.share-link", { readonly: true, value: link, "aria-label": t("room.share"), onfocus: (e) => e.target.select() }),
        h("button.secondary", { key: "copy", onclick: () => actions.copyLink(link) }, ui.copied ? t("room.copied") : t("room.share")))),
    isHost
      ? h("div.host-controls", {},
          h("button.secondary", { key: "add-bot", onclick: () => actions.addBot() }, t("room.add_bot")),
          h("button.primary", { key: "start", onclick: () => actions.start(), disabled: seated < 2 }, t("room.start")),
          seated < 2 ? h("p.muted", {}, t("room.need_players")) : null,
          cachedRulesEditor(ui, s.rules, actions))
      : h("p.waiting", {}, model.mySeat === null ? t("table.lobby_hint") : t("room.waiting_host")),
    model.mySeat !== null && ui.mode === "play"
      ? h("button.link.leave", { key: "leave", onclick: () => actions.leave() }, t("room.leave"))
      : null);
}

/** The host's rules form stays the same element (keeps edits, focus and caret) until the room's
 * rules change. */
function cachedRulesEditor(ui, rules, actions) {
  return stable(ui, "rulesEditor", JSON.stringify(rules || {}) + document.documentElement.lang,
    () => h("details.rules-details", {},
      h("summary", {}, t("room.rules")),
      rulesEditor({ initial: rules, onSubmit: (preset, changes) => actions.setRules(preset, changes),
        submitLabel: t("room.rules_apply") })));
}
