// The rules chooser: a preset, then every toggle with a one-line explanation, in groups (deck,
// cards and stacking, turns, UNO calls, scoring, table and teams, timers). Used when creating a
// room and by the host in the lobby. Only the toggles that differ from the preset are sent; a
// combination the server refuses is answered with its own words.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { RULES, PRESETS, DEFAULT_TARGET, CUSTOM_EFFECTS, DEFAULT_CUSTOM_CARDS } from "./rules-schema.js";
import { groupedKeys, isHouseRule, ruleAbout, ruleLabel, choiceLabel } from "./rules-words.js";
import { errorText } from "./errors.js";

let formCount = 0;
const RULE_BY_KEY = Object.fromEntries(RULES.map((rule) => [rule.key, rule]));

/** The values a preset gives every key (the target follows the scoring, as in rules.py). */
export function presetValues(name) {
  const values = Object.fromEntries(RULES.map((r) => [r.key, r.default]));
  Object.assign(values, PRESETS[name] || {});
  values.target = DEFAULT_TARGET[values.scoring] ?? values.target;
  return values;
}

/** Which preset a full rules object matches best (the one needing fewest changes). */
function closestPreset(values) {
  let best = "official";
  let bestCount = Infinity;
  for (const name of Object.keys(PRESETS)) {
    const base = presetValues(name);
    const count = RULES.filter((r) => values[r.key] !== undefined && values[r.key] !== base[r.key]).length;
    if (count < bestCount) [best, bestCount] = [name, count];
  }
  return best;
}

const DEFAULT_CUSTOM = DEFAULT_CUSTOM_CARDS;

/** E-CUSTOM: the host gives each Wild Customizable an effect from the menu and a label. */
function customCardFields(id, initial) {
  const cards = (initial && initial.length === 3 ? initial : DEFAULT_CUSTOM).map((card, i) => {
    const effect = h("select", { id: `${id}-wc${i}-effect`, "aria-label": `${t("card.WC" + (i + 1))}: ${t("rules.custom_effect")}` },
      CUSTOM_EFFECTS.map((e) => h("option", { value: e, selected: e === card.effect }, t(`effect.${e}`))));
    const label = h("input", { type: "text", id: `${id}-wc${i}-label`, maxlength: 40, value: card.label,
      "aria-label": `${t("card.WC" + (i + 1))}: ${t("rules.custom_label")}` });
    return { effect, label, row: h("div.custom-card", {}, h("span.custom-name", {}, t(`card.WC${i + 1}`)), effect, label) };
  });
  const element = h("div.rule-row.custom", {},
    h("span.rule-title", {}, t("rules.custom_cards")),
    h("p.hint", {}, t("rules.custom_about")),
    cards.map((c) => c.row));
  const read = () => cards.map((c) => ({ effect: c.effect.value, label: c.label.value.trim() || c.effect.value }));
  return { element, read };
}

/** Fields for a preset and every toggle; read() gives {preset, rules} with only the changes. */
export function rulesFields({ initial = null, onPreset = null } = {}) {
  const id = `rules${++formCount}`;
  const preset = initial ? closestPreset(initial) : "official";
  const inputs = {};
  const presetAbout = h("p.hint", { id: `${id}-preset-about` });
  const presetSelect = h("select", { id: `${id}-preset`, name: "preset", "aria-describedby": `${id}-preset-about` },
    Object.keys(PRESETS).map((name) => h("option", { value: name, selected: name === preset }, t(`preset.${name}`))));

  function fill(values) {
    for (const rule of RULES) {
      const input = inputs[rule.key];
      const value = values[rule.key];
      if (rule.type === "bool") input.checked = Boolean(value);
      else input.value = String(value);
    }
    presetAbout.textContent = t(`preset.${presetSelect.value}.about`);
  }

  const rows = {};
  for (const [group, keys] of groupedKeys()) {
    rows[group] = keys.map((key) => {
      const rule = RULE_BY_KEY[key];
      const inputId = `${id}-${key}`;
      let input;
      if (rule.type === "bool") input = h("input", { type: "checkbox", id: inputId, name: key });
      else if (rule.type === "int") input = h("input", { type: "number", id: inputId, name: key, min: rule.min, max: rule.max, step: 1, inputmode: "numeric" });
      else input = h("select", { id: inputId, name: key }, rule.choices.map((v) => h("option", { value: v }, choiceLabel(v))));
      input.setAttribute("aria-describedby", `${inputId}-about`);
      inputs[key] = input;
      const house = isHouseRule(key);
      return h(`div.rule-row.${rule.type}`, { class: house ? "house" : "", "data-rule": key },
        rule.type === "bool"
          ? h("label", { for: inputId }, input, " ", ruleLabel(key))
          : h("label", { for: inputId }, ruleLabel(key)),
        rule.type === "bool" ? null : input,
        h("p.hint", { id: `${inputId}-about` }, ruleAbout(key), house ? h("span.badge.house", {}, t("rules.house")) : null));
    });
  }

  presetSelect.addEventListener("change", () => {
    fill(presetValues(presetSelect.value));
    onPreset?.(presetSelect.value);
  });
  inputs.scoring.addEventListener("change", () => {
    inputs.target.value = String(DEFAULT_TARGET[inputs.scoring.value]);
  });

  const custom = customCardFields(id, initial?.custom_cards);
  const presetField = h("div.field", {}, h("label", { for: `${id}-preset` }, t("create.preset")), presetSelect, presetAbout);
  const toggles = h("div.rule-list", {}, groupedKeys().map(([group]) => h(`fieldset.rule-group.group-${group}`, {},
    h("legend", {}, t(`rules.group.${group}`)),
    rows[group],
    group === "deal" ? custom.element : null)));
  const element = h("div.rules-fields", {}, presetField, toggles);
  fill(initial ? { ...presetValues(preset), ...initial } : presetValues(preset));

  function read() {
    const base = presetValues(presetSelect.value);
    const rules = {};
    for (const rule of RULES) {
      const input = inputs[rule.key];
      const value = rule.type === "bool" ? input.checked : rule.type === "int" ? Number(input.value) : input.value;
      if (value !== base[rule.key]) rules[rule.key] = value;
    }
    const cards = custom.read();
    if (JSON.stringify(cards) !== JSON.stringify(DEFAULT_CUSTOM)) rules.custom_cards = cards;
    return { preset: presetSelect.value, rules };
  }
  return { element, presetField, toggles, read };
}

/** A whole form for the host in the lobby; `onSubmit` returns a promise (refused: the error). */
export function rulesEditor({ initial, onSubmit, submitLabel }) {
  const fields = rulesFields({ initial });
  const error = h("p.form-error", { role: "alert" });
  return h("form.rules-form", {
    onsubmit: (event) => {
      event.preventDefault();
      error.textContent = "";
      const { preset, rules } = fields.read();
      Promise.resolve(onSubmit(preset, rules)).catch((refusal) => {
        error.textContent = errorText(refusal?.code, refusal?.message);
      });
    },
  }, fields.element, error, h("button.primary", { type: "submit", key: "rules-apply" }, submitLabel));
}
