// Tiny DOM helpers. User text only ever goes through textContent (never innerHTML), so a
// player name or a chat line can never inject markup.

/**
 * h("button#id.primary", {onclick, disabled: true, "aria-label": "..."}, "text", child, [more])
 * Attributes starting with "on" become listeners; `key` becomes data-key (focus is kept across
 * re-renders by it); false/null attributes are skipped.
 */
export function h(spec, attrs = {}, ...children) {
  const [head, ...classes] = spec.split(".");
  const [tag, id] = head.split("#");
  const el = document.createElement(tag || "div");
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(" ");
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value);
    } else if (name === "key") {
      el.dataset.key = String(value);
    } else if (name === "class") {
      el.className = [el.className, value].filter(Boolean).join(" ");
    } else if (name === "style" && typeof value === "object") {
      Object.assign(el.style, value);
    } else if (name in el && typeof value !== "string") {
      el[name] = value;
    } else {
      el.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Replace the children of `el`, keeping keyboard focus on the element with the same data-key. */
export function replaceChildren(el, ...children) {
  if (sameNodes(el, children)) return; // a stable panel (see `stable`) stays where it is
  const active = document.activeElement;
  const key = active && el.contains(active) ? active.dataset.key : undefined;
  el.replaceChildren();
  append(el, children);
  if (active && active !== document.body && active.isConnected && el.contains(active)) {
    active.focus({ preventScroll: true }); // the same node was re-attached (a cached form)
  } else if (key) {
    const again = el.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again && !again.disabled) again.focus({ preventScroll: true });
  }
}

export function clear(el) {
  el.replaceChildren();
}

/** True when `children` are exactly `el`'s child nodes, in order (nothing to replace). */
function sameNodes(el, children) {
  const nodes = children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false);
  if (nodes.length !== el.childNodes.length) return false;
  return nodes.every((node, i) => node === el.childNodes[i]);
}

/**
 * The element `build()` made the last time `signature` (a string of all it shows) was the same,
 * kept in `cache[name]`; made anew only when what it shows changed. The table re-renders on
 * every frame: a panel made anew each time would swap a button between a click's mousedown and
 * its mouseup (no click), and end an IME's composition in its text field.
 */
export function stable(cache, name, signature, build) {
  const held = cache[name];
  if (held && held.signature === signature) return held.el;
  const el = build();
  cache[name] = { signature, el };
  return el;
}
