// Interface icons as inline SVG (no emoji font needed: a TV box or a kiosk may have none). Each
// is drawn in the text's colour; `icon(name)` is decorative (the control beside it has words),
// `icon(name, label)` names itself for a screen reader.
const SVG = "http://www.w3.org/2000/svg";

// 24 x 24 paths, stroked unless `fill` is set.
const ICONS = {
  sound: { d: "M4 9h4l5-4v14l-5-4H4z M16 8.5a5 5 0 0 1 0 7 M18.5 6a8.5 8.5 0 0 1 0 12" },
  muted: { d: "M4 9h4l5-4v14l-5-4H4z M16 9l6 6 M22 9l-6 6" },
  eye: { d: "M1.5 12S5.5 5 12 5s10.5 7 10.5 7-4 7-10.5 7S1.5 12 1.5 12z M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z" },
  cw: { d: "M19.5 12a7.5 7.5 0 1 1-2.2-5.3 M19.5 3.5v4h-4" },
  ccw: { d: "M4.5 12a7.5 7.5 0 1 0 2.2-5.3 M4.5 3.5v4h4" },
  skip: { d: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18z M5.6 18.4 18.4 5.6" },
  reverse: { d: "M4 9h13l-4-4 M20 15H7l4 4" },
  shuffle: { d: "M3 7h4l10 10h4 M3 17h4l10-10h4 M18 4l3 3-3 3 M18 14l3 3-3 3" },
  pencil: { d: "M4 20l1-5L16 4l4 4L9 19z M13.5 6.5l4 4" },
  keyboard: { d: "M2.5 6.5h19v11h-19z M6 10h1 M9.5 10h1 M13 10h1 M16.5 10h1 M7 14h10" },
  log: { d: "M5 5h14 M5 10h14 M5 15h9 M5 20h6" },
  close: { d: "M6 6l12 12 M18 6 6 18" },
  display: { d: "M12 3a9 9 0 1 0 0 18z M12 3a9 9 0 0 1 0 18" },
  tv: { d: "M3 5h18v12H3z M8 21h8 M12 17v4" },
};

/** An icon; with `label` it is an image with that name, else hidden from screen readers. */
export function icon(name, label = "") {
  const spec = ICONS[name];
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", `icon icon-${name}`);
  svg.setAttribute("focusable", "false");
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", spec.d);
  svg.appendChild(path);
  return svg;
}
