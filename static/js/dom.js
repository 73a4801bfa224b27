// Tiny DOM helpers. User text only ever goes through textContent (never innerHTML), so a
// player name or a chat line can never inject markup.
//
// replaceChildren does not swap what is on the page for what h() just made: it patches the
// page into it (a morph), so an element that still shows the same thing stays the same element.
// The table re-renders on every frame; a click split by one (mousedown, a frame, mouseup) still
// lands, and hover, :active, an animation, a field's focus and caret go on.
import morphdom from "../vendor/morphdom/morphdom-esm.js"; // morphdom 2.7.8, MIT: static/vendor/morphdom/

/**
 * h("button#id.primary", {onclick, disabled: true, "aria-label": "..."}, "text", child, [more])
 * Attributes starting with "on" are the element's handlers (el._on, one listener per event name
 * calls the current one: a re-render hands the surviving element the new ones); `key` becomes
 * data-key (a re-render matches elements by it, and keeps focus on it); a non-string value
 * whose name is a property (disabled, checked, open) is set as the property (el._props);
 * false/null attributes are skipped.
 */
export function h(spec, attrs = {}, ...children) {
  const [head, ...classes] = spec.split(".");
  const [tag, id] = head.split("#");
  const el = document.createElement(tag || "div");
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(" ");
  let on = null;
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on") && typeof value === "function") {
      (on ||= {})[name.slice(2)] = value;
    } else if (name === "key") {
      el.dataset.key = String(value);
    } else if (name === "class") {
      el.className = [el.className, value].filter(Boolean).join(" ");
    } else if (name === "style" && typeof value === "object") {
      Object.assign(el.style, value);
    } else if (name in el && typeof value !== "string") {
      el[name] = value;
      (el._props ||= {})[name] = value;
    } else {
      el.setAttribute(name, value === true ? "" : String(value));
    }
  }
  if (on) listen(el, on);
  append(el, children);
  return el;
}

/** Make `on` ({click: fn}) the element's handlers, in place of the ones it had. */
function listen(el, on) {
  for (const type of Object.keys(el._on || {})) if (!on?.[type]) el.removeEventListener(type, dispatch);
  for (const type of Object.keys(on || {})) el.addEventListener(type, dispatch);
  el._on = on || undefined;
}

function dispatch(event) {
  event.currentTarget._on?.[event.type]?.call(event.currentTarget, event);
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child._keep && child.isConnected ? standIn(child) : child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

let keptCount = 0;

/**
 * Mark `el` as an element its maker holds and changes itself (a cached form, a ticking clock):
 * a re-render puts it in place as it is, never patches another element into it or it into
 * another. An element passed straight to replaceChildren that is in the page already is kept.
 */
export function keep(el) {
  el._keep ||= `keep-${++keptCount}`;
  return el;
}

/** What h() puts in a new tree for a kept element on the page: the element itself stays where
 * it is (moved, a focused field in it would lose its focus) until replaceChildren places it. */
function standIn(node) {
  const stand = document.createElementNS(node.namespaceURI, node.localName);
  stand._keep = node._keep;
  stand._for = node;
  stand.setAttribute("data-stand-in", "");
  return stand;
}

const MORPH = {
  childrenOnly: true,
  getNodeKey: keyOf,
  addChild,
  onBeforeNodeAdded: (node) => node._for || node,
  onBeforeElUpdated: update,
  // A focused <select> keeps the option the person is choosing.
  onBeforeElChildrenUpdated: (from) => !(from.nodeName === "SELECT" && from === document.activeElement),
};

/** Put `child` last in `parent`. A focused element there already stays put and what came
 * after it moves before it (moving it would blur it: a new element before a kept form). */
function addChild(parent, child) {
  if (child.parentNode === parent && child.contains(document.activeElement)) {
    while (child.nextSibling) parent.insertBefore(child.nextSibling, child);
  } else {
    parent.appendChild(child);
  }
  return child;
}

/** The key morphdom matches elements by: a kept element's own; data-key, except inside a kept
 * element (never matched with anything). */
function keyOf(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return undefined;
  if (node._keep) return node._keep;
  for (let up = node.parentNode; up; up = up.parentNode) if (up._keep) return undefined;
  return node.getAttribute("data-key") || undefined;
}

const LIVE = new Set(["value", "checked", "selectedIndex"]); // what a person changes in a focused field

/** `from` (on the page) is about to become `to` (just made): handlers, properties, and what
 * belongs to the page rather than to h() (a field being typed in, an open dialog). */
function update(from, to) {
  if (to._for) return false; // a stand-in: its kept element (`from`, by key) stays as it is
  listen(from, to._on);
  const typing = from === document.activeElement;
  const props = to._props || {};
  for (const [name, value] of Object.entries(props)) {
    if (!(typing && LIVE.has(name)) && from[name] !== value) from[name] = value;
  }
  for (const name of Object.keys(from._props || {})) {
    if (!(name in props) && !(typing && LIVE.has(name))) from[name] = to[name]; // `to` has the default
  }
  from._props = to._props;
  if (typing && from.nodeName === "INPUT") {
    // morphdom then sees nothing to change: the value, the caret and an IME's composition stay.
    if (from.hasAttribute("value")) to.setAttribute("value", from.getAttribute("value"));
    else to.removeAttribute("value");
    to.value = from.value;
    to.checked = from.checked;
  } else if (typing && from.nodeName === "TEXTAREA") {
    to.value = from.value;
  }
  if (from.nodeName === "DIALOG" && from.open) to.setAttribute("open", ""); // shown: closed by its own code
  return true;
}

/** Patch the children of `el` into `children`, keeping keyboard focus on the element with the
 * same data-key if the focused one went. */
export function replaceChildren(el, ...children) {
  if (sameNodes(el, children)) return; // a stable panel (see `stable`) stays where it is
  const active = document.activeElement;
  const key = active && el.contains(active) ? active.dataset?.key : undefined;
  const next = el.cloneNode(false);
  for (const child of children.flat(Infinity)) if (child instanceof Element && child.isConnected) keep(child);
  append(next, children);
  morphdom(el, next, MORPH);
  for (const stand of el.querySelectorAll("[data-stand-in]")) stand.replaceWith(stand._for);
  if (active && active !== document.body && active.isConnected && el.contains(active)) {
    if (document.activeElement !== active) active.focus({ preventScroll: true }); // moved: focus again
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
 * kept in `cache[name]`; made anew only when what it shows changed. It is a kept element (see
 * `keep`): a re-render leaves it as it is, so the state of its fields (typed text, an IME's
 * composition, an open <details>) lives on while the signature holds.
 */
export function stable(cache, name, signature, build) {
  const held = cache[name];
  if (held && held.signature === signature) return held.el;
  const el = keep(build());
  cache[name] = { signature, el };
  return el;
}
