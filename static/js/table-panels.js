// Your hand and the prompts that ask you something (color, target, challenge, drawn card),
// the round results, and the lobby with the host's controls.
import { h } from "./dom.js";
import { t, cardName } from "./i18n.js";
import { COLORS, cardFace, sortHand, parseCard } from "./cards.js";
import { seatName } from "./describe.js";
import { timerRing } from "./table-seats.js";
import { rulesEditor } from "./rules-form.js";

function labelsOf(state) {
  return (state.rules?.custom_cards || []).map((c) => c.label);
}

export function handArea(model, ui, actions) {
  const s = model.state;
  const hand = sortHand(model.hand);
  const giving = model.mustGive;
  const labels = labelsOf(s);
  const cards = hand.map((card, index) => {
    const playable = model.isPlayable(card);
    const jump = !playable && model.canJumpIn(card);
    const enabled = playable || jump || giving;
    const name = cardName(card, labels);
    return h("li", {},
      cardFace(card, {
        tag: "button",
        customLabels: labels,
        attrs: {
          key: `hand-${card}-${index}`,
          class: [playable ? "playable" : "", jump ? "jump-in" : "", giving ? "giveable" : ""].filter(Boolean).join(" "),
          disabled: !enabled,
          "aria-label": jump ? `${name}: ${t("table.jump_in")}` : name,
          onclick: () => (giving ? actions.give(card) : actions.chooseCard(card)),
        },
      }));
  });
  const drawn = model.drawnCard;
  const stack = s.pending?.kind === "stack" && s.pending.seat === model.mySeat ? s.pending : null;
  const canDraw = model.myMove && (!s.pending || stack);
  const unoReady = model.canCallUno;
  const me = s.seats[model.mySeat] || {};
  return h("section.hand-area", { "aria-labelledby": "hand-title", class: model.myMove ? "my-move" : "" },
    h("div.hand-bar", {},
      h("h2#hand-title.hand-title", { tabindex: "-1" }, t("table.hand_count", { n: hand.length })),
      h("div.hand-actions", {},
        canDraw ? h("button.secondary.draw-button", { key: "draw", onclick: () => actions.draw(), "aria-keyshortcuts": "D" },
          stack ? t("table.take", { n: stack.amount ?? "" }) : t("table.draw")) : null,
        drawn ? h("button.secondary", { key: "keep", onclick: () => actions.keep() }, t("table.keep")) : null,
        s.phase === "playing"
          ? h("button.uno-button", {
              key: "uno", onclick: () => actions.callUno(), disabled: !unoReady, "aria-keyshortcuts": "U",
              class: unoReady ? "ready" : "", "aria-pressed": me.uno && hand.length === 1 ? "true" : "false",
            }, me.uno && hand.length === 1 ? t("table.uno_called") : t("table.uno"))
          : null)),
    jumpHint(model, hand),
    h("ul.hand", { "aria-label": t("table.your_hand") }, cards));
}

function jumpHint(model, hand) {
  return hand.some((card) => !model.isPlayable(card) && model.canJumpIn(card))
    ? h("p.jump-hint", { role: "status" }, t("table.jump_hint"))
    : null;
}

export function colorPicker(title, onPick, onCancel) {
  return h("div.prompt.color-picker", { role: "group", "aria-label": title },
    h("p.prompt-title", {}, title),
    h("div.color-buttons", {},
      COLORS.map((c) => h(`button.color-button.c-${c}`, { key: `color-${c}`, onclick: () => onPick(c) },
        t(`color.${c}`)))),
    onCancel ? h("button.link", { key: "color-cancel", onclick: onCancel }, t("table.cancel")) : null);
}

export function seatPicker(model, title, onPick, onCancel, optional = false) {
  const s = model.state;
  const others = s.seats.map((_, i) => i)
    .filter((i) => i !== model.mySeat && !s.seats[i].out && (!optional || s.seats[i].cards));
  return h("div.prompt.seat-picker", { role: "group", "aria-label": title },
    h("p.prompt-title", {}, title),
    h("div.seat-buttons", {},
      others.map((seat) => h("button.secondary", { key: `target-${seat}`, onclick: () => onPick(seat) },
        `${seatName(s, seat)} · ${t("seat.cards", { n: s.seats[seat].cards ?? 0 })}`)),
      optional ? h("button.secondary", { key: "target-none", onclick: () => onPick(null) }, t("table.no_exchange")) : null),
    h("button.link", { key: "target-cancel", onclick: onCancel }, t("table.cancel")));
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
  const parts = [];
  if (model.reveal) {
    parts.push(h("div.prompt.reveal", { role: "status" },
      h("p.prompt-title", {}, t("table.revealed", { name: seatName(s, model.reveal.offender) })),
      h("div.reveal-cards", {}, sortHand(model.reveal.hand).map((c) => cardFace(c, { size: "small", customLabels: labels }))),
      h("button.link", { key: "reveal-close", onclick: () => actions.closeReveal() }, t("table.close"))));
  }
  if (model.slap) {
    parts.push(model.mustSlap
      ? h("div.prompt.slap", { role: "alertdialog", "aria-label": t("table.slap_now") },
          h("div.prompt-head", {}, timerRing(), h("p.prompt-title", {}, t("table.slap_now"))),
          h("button.slap-button", { key: "slap", onclick: () => actions.slap() }, t("table.slap")))
      : h("p.prompt.info", { role: "status" }, t("table.slap_wait")));
  }
  if (p && s.phase === "playing" && !model.slap) {
    if (p.kind === "choose_color" && p.seat === me) {
      parts.push(colorPicker(t("table.choose_first_color"), (color) => actions.chooseColor(color)));
    } else if (p.kind === "challenge" && p.seat === me) {
      const amount = p.amount ?? 4;
      parts.push(h("div.prompt.challenge", { role: "alertdialog", "aria-labelledby": "challenge-title" },
        h("div.prompt-head", {}, timerRing(), h("p#challenge-title.prompt-title", {},
          t("table.challenge_prompt", { name: seatName(s, p.offender) }))),
        h("div.prompt-buttons", {},
          h("button.danger", { key: "challenge", onclick: () => actions.challenge() }, t("table.challenge")),
          h("button.secondary", { key: "accept", onclick: () => actions.accept() }, t("table.accept", { n: amount })))));
    } else if (p.kind === "challenge") {
      parts.push(h("p.prompt.info", { role: "status" }, t("table.challenge_wait", { name: seatName(s, p.seat) })));
    } else if (p.kind === "play_drawn" && p.seat === me && model.drawnCard) {
      const card = model.drawnCard;
      parts.push(h("div.prompt.drawn", {},
        h("div.prompt-head", {}, cardFace(card, { size: "small", customLabels: labels }),
          h("p.prompt-title", {}, t("table.drew_playable", { card: cardName(card, labels) }))),
        h("div.prompt-buttons", {},
          h("button.primary", { key: "play-drawn", onclick: () => actions.chooseCard(card) }, t("table.play_drawn")),
          s.rules?.must_play_drawn ? null
            : h("button.secondary", { key: "keep-drawn", onclick: () => actions.keep() }, t("table.keep")))));
    } else if (p.kind === "stack" && p.seat === me) {
      const amount = p.amount ?? "";
      parts.push(h("div.prompt.stack", { role: "alertdialog", "aria-labelledby": "stack-title" },
        h("div.prompt-head", {}, timerRing(), h("p#stack-title.prompt-title", {}, t("table.stack_prompt", { n: amount }))),
        h("div.prompt-buttons", {},
          p.offender !== undefined && p.offender !== null && p.offender >= 0
            ? h("button.danger", { key: "stack-challenge", onclick: () => actions.challenge() }, t("table.challenge")) : null,
          h("button.secondary", { key: "stack-take", onclick: () => actions.draw() }, t("table.take", { n: amount })))));
    } else if (p.kind === "stack") {
      parts.push(h("p.prompt.info", { role: "status" }, t("table.stack_wait", { name: seatName(s, p.seat), n: p.amount ?? "" })));
    } else if (p.kind === "exchange" && model.mustGive) {
      const other = p.seat === me ? p.target : p.seat;
      parts.push(h("p.prompt.info.give", { role: "status" }, t("table.give_to", { name: seatName(s, other) })));
    } else if (p.kind === "exchange") {
      parts.push(h("p.prompt.info", { role: "status" },
        t("table.exchange_wait", { name: seatName(s, p.seat), target: seatName(s, p.target) })));
    }
  }
  if (s.silence) {
    parts.push(h("p.prompt.silence", { role: "status" }, t("table.silence")));
  }
  return parts.length ? h("div.prompts", {}, parts) : null;
}

export function resultsPanel(model, actions) {
  const s = model.state;
  const last = s.last_round;
  if (!last) return null;
  const labels = labelsOf(s);
  const isHost = model.mySeat !== null && s.host === model.mySeat;
  const rows = s.seats.map((_, seat) => h("tr", { class: seat === last.winner ? "winner" : "" },
    h("th", { scope: "row" }, seatName(s, seat, model.mySeat)),
    h("td.result-hand", {},
      (last.hands?.[seat] || []).length
        ? h("div.mini-hand", {}, sortHand(last.hands[seat]).map((c) => cardFace(c, { size: "tiny", customLabels: labels })))
        : "—"),
    h("td.num", {}, String(last.hand_points?.[seat] ?? 0)),
    h("td.num", {}, String(last.points?.[seat] ?? 0)),
    h("td.num.total", {}, String(last.scores?.[seat] ?? s.seats[seat].score ?? 0))));
  const result = s.result;
  return h("section.results", { "aria-labelledby": "results-title" },
    h("h2#results-title", {}, result ? t("match.over") : t("round.over", { n: last.round ?? s.round })),
    h("p.results-winner", {}, result
      ? t("match.winner", { names: (result.winners || []).map((w) => seatName(s, w)).join(", ") })
      : t("round.winner", { name: seatName(s, last.winner) })),
    h("div.table-scroll", {},
      h("table.results-table", {},
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, t("col.player")), h("th", { scope: "col" }, t("round.hand")),
          h("th.num", { scope: "col" }, t("round.points")), h("th.num", { scope: "col" }, t("round.round_points")),
          h("th.num", { scope: "col" }, t("round.total")))),
        h("tbody", {}, rows))),
    !result && isHost
      ? h("button.primary", { key: "next-round", onclick: () => actions.nextRound() }, t("round.next"))
      : null,
    !result && !isHost ? h("p.muted", {}, t("round.waiting_next")) : null,
    result ? h("div.form-buttons", {},
      isHost ? h("button.primary", { key: "rematch", onclick: () => actions.start() }, t("match.rematch")) : null,
      !isHost && model.mySeat !== null ? h("p.muted", {}, t("match.waiting_rematch")) : null,
      s.match ? h("a.button.secondary", { href: `#/match/${s.match}` }, t("match.details")) : null,
      h("a.button.secondary", { href: "#/" }, t("nav.home"))) : null);
}

export function lobbyPanel(model, ui, actions) {
  const s = model.state;
  const isHost = model.mySeat !== null && s.host === model.mySeat;
  const link = `${location.origin}${location.pathname}#/room/${s.code || ui.code}`;
  const seated = s.seats.length;
  return h("section.lobby-panel", { "aria-labelledby": "lobby-title" },
    h("h2#lobby-title", {}, t("room.seats")),
    h("ul.lobby-seats", {}, s.seats.map((info, seat) => h("li", {},
      h("span.seat-name", {}, seatName(s, seat, model.mySeat)),
      h("span.badges", {},
        s.host === seat ? h("span.badge.host", {}, t("seat.host")) : null,
        info.bot ? h("span.badge.bot", {}, t("seat.bot")) : null,
        info.connected === false && !info.bot ? h("span.badge.offline", {}, t("seat.offline")) : null),
      isHost && seat !== model.mySeat
        ? h("button.link.kick", { key: `kick-${seat}`, onclick: () => actions.kick(seat) },
            t("room.kick", { name: seatName(s, seat) }))
        : null))),
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
      : h("p.waiting", { role: "status" }, model.mySeat === null ? t("table.lobby_hint") : t("room.waiting_host")),
    model.mySeat !== null && ui.mode === "play"
      ? h("button.link.leave", { key: "leave", onclick: () => actions.leave() }, t("room.leave"))
      : null);
}

/** The host's rules form survives re-renders (keeps edits) until the room's rules change. */
function cachedRulesEditor(ui, rules, actions) {
  const key = JSON.stringify(rules || {}) + document.documentElement.lang;
  if (!ui.rulesEditor || ui.rulesEditorKey !== key) {
    ui.rulesEditorKey = key;
    ui.rulesEditor = h("details.rules-details", {},
      h("summary", {}, t("room.rules")),
      rulesEditor({ initial: rules, onSubmit: (preset, changes) => actions.setRules(preset, changes),
        submitLabel: t("room.rules_apply") }));
  }
  return ui.rulesEditor;
}
