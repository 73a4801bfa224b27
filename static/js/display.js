// How the page looks for this browser, remembered: the colour marks (on unless switched off)
// and high contrast (as the system asks, `prefers-contrast: more`, unless switched). Each is an
// attribute of <html> that the stylesheet reads: data-marks="on|off", data-contrast="more|normal".
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { icon } from "./icons.js";

const MARKS_KEY = "uno.marks";
const CONTRAST_KEY = "uno.contrast";
const root = document.documentElement;

export function marksOn() {
  return localStorage.getItem(MARKS_KEY) !== "off";
}

export function highContrast() {
  const stored = localStorage.getItem(CONTRAST_KEY);
  if (stored === "more" || stored === "normal") return stored === "more";
  return window.matchMedia?.("(prefers-contrast: more)").matches ?? false;
}

export function setMarks(on) {
  localStorage.setItem(MARKS_KEY, on ? "on" : "off");
  apply();
}

export function setHighContrast(on) {
  localStorage.setItem(CONTRAST_KEY, on ? "more" : "normal");
  apply();
}

function apply() {
  root.dataset.marks = marksOn() ? "on" : "off";
  root.dataset.contrast = highContrast() ? "more" : "normal";
}

/** The header's "Display" menu: a button that shows the two switches. */
export function displayMenu() {
  const panelId = "display-panel";
  const toggle = (key, checked, onChange) => {
    const id = `display-${key}`;
    return h("div.switch", {},
      h("input", { type: "checkbox", id, checked, onchange: (e) => onChange(e.target.checked) }),
      h("label", { for: id }, t(`display.${key}`)));
  };
  const panel = h("div.display-panel", { id: panelId, hidden: true, role: "group", "aria-label": t("display.title") },
    toggle("marks", marksOn(), setMarks),
    toggle("contrast", highContrast(), setHighContrast));
  // The handlers find the panel from the event: a re-render keeps the elements on the page
  // (dom.js), not these new ones.
  const show = (menu, open) => {
    menu.querySelector(".display-panel").hidden = !open;
    menu.querySelector(".display-button").setAttribute("aria-expanded", String(open));
  };
  const button = h("button.secondary.display-button", {
    type: "button", "aria-expanded": "false", "aria-controls": panelId,
    onclick: (event) => {
      const menu = event.currentTarget.closest(".display-menu");
      show(menu, menu.querySelector(".display-panel").hidden);
    },
  }, icon("display"), t("display.title"));
  const menu = h("div.display-menu", {
    onkeydown: (event) => {
      const here = event.currentTarget;
      if (event.key === "Escape" && !here.querySelector(".display-panel").hidden) {
        show(here, false);
        here.querySelector(".display-button").focus();
        event.stopPropagation();
      }
    },
  }, button, panel);
  return menu;
}

apply();
window.matchMedia?.("(prefers-contrast: more)").addEventListener?.("change", apply);
