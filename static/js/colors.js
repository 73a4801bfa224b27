// The one place colour is drawn: each UNO colour (and each team of H-TEAMS) is a class that
// the stylesheet paints, a name in the page's language, and a shape of its own, so that no one
// has to tell red from green to play. The shapes are this project's own: a circle for red, a
// triangle for yellow, a square for green, a diamond for blue; a star and a hexagon for the two
// teams. Every view (cards, the current colour, the colour choice, team badges, the party
// screen, the replay) draws colour through here. The marks are always in the page; the
// display switch (display.js) only hides them.
import { h } from "./dom.js";
import { t } from "./i18n.js";

export const COLORS = ["R", "Y", "G", "B"];
export const COLOR_MARKS = { R: "circle", Y: "triangle", G: "square", B: "diamond" };
export const TEAM_MARKS = ["star", "hexagon"];

const SVG = "http://www.w3.org/2000/svg";
// Each shape in a 24 x 24 box, drawn filled with a contrasting outline (see app.css .mark).
const SHAPES = {
  circle: ["circle", { cx: 12, cy: 12, r: 9.5 }],
  triangle: ["path", { d: "M12 1.8 23 21.6H1z" }],
  square: ["rect", { x: 3, y: 3, width: 18, height: 18, rx: 1.5 }],
  diamond: ["path", { d: "M12 .8 23.2 12 12 23.2.8 12z" }],
  star: ["path", { d: "M12 1.2l3.2 7 7.6.8-5.7 5.1 1.6 7.5L12 17.8l-6.7 3.8 1.6-7.5-5.7-5.1 7.6-.8z" }],
  hexagon: ["path", { d: "M6.5 2.5h11L23 12l-5.5 9.5h-11L1 12z" }],
};

/** An SVG shape (`circle`, `triangle`, ...), hidden from screen readers: its words say it. */
export function mark(shape, extraClass = "") {
  const [tag, attrs] = SHAPES[shape];
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", `mark mark-${shape}${extraClass ? " " + extraClass : ""}`);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.dataset.mark = shape;
  const path = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) path.setAttribute(name, String(value));
  svg.appendChild(path);
  return svg;
}

/** The class that paints a colour (`c-R`), or "" for none. */
export function colorClass(letter) {
  return COLORS.includes(letter) ? `c-${letter}` : "";
}

/** The ring the table's centre shows in the current colour (`current-R`), or "". */
export function currentClass(letter) {
  return COLORS.includes(letter) ? `current-${letter}` : "";
}

/** The shape of a colour (a card's corner and centre, a badge, a button). */
export function colorMark(letter, extraClass = "") {
  return COLORS.includes(letter) ? mark(COLOR_MARKS[letter], extraClass) : null;
}

/** The colour's name in the page's language ("red", "빨강", "червоний"). */
export function colorName(letter) {
  return t(`color.${letter}`);
}

/** A round swatch of the colour with its shape on it. */
export function swatch(letter) {
  return h(`span.swatch.${colorClass(letter) || "none"}`, { "aria-hidden": "true" }, colorMark(letter));
}

/** The current colour: its swatch, then `text` (its name in words). */
export function colorChip(letter, text) {
  return h(`div.color-chip.${colorClass(letter) || "none"}`, {},
    letter ? swatch(letter) : null,
    h("span", { "data-testid": "current-color" }, text));
}

/** A button of the colour choice: its shape, its name, and the key that picks it (1-4). */
export function colorButton(letter, attrs) {
  const key = String(COLORS.indexOf(letter) + 1);
  return h(`button.color-button.${colorClass(letter)}`, { "aria-keyshortcuts": key, ...attrs },
    colorMark(letter),
    h("span.color-button-name", {}, colorName(letter)),
    h("kbd.key-hint", { "aria-hidden": "true" }, key));
}

/** H-TEAMS: the class that paints a team, and its shape. */
export function teamClass(team) {
  return typeof team === "number" ? `team-${team}` : "";
}

export function teamMark(team) {
  return typeof team === "number" ? mark(TEAM_MARKS[team % TEAM_MARKS.length]) : null;
}

/** "Team 1" / "Team 2" in the team's colour, with its shape. */
export function teamBadge(team) {
  return typeof team === "number"
    ? h(`span.badge.team.${teamClass(team)}`, {}, teamMark(team), t("team.name", { n: team + 1 }))
    : null;
}
