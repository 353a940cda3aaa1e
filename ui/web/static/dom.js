// dom.js: the one way the panel puts text on the page. Everything the model
// writes (transcript, tool summaries, commands, diffs, file names) is
// model-controlled: it only ever becomes a Text node (never innerHTML), and
// the characters that could make it read differently from what it is —
// Unicode bidi controls and C0/C1 control characters — are shown as visible
// "⟦U+202E⟧" marks, as the workbench strips escape sequences.

// invisible matches the bidi controls (LRM, RLM, ALM, LRE..RLO, LRI..PDI) and
// the C0/C1 controls other than tab and newline.
const invisible = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/** visible returns s with every bidi/control character replaced by a visible ⟦U+XXXX⟧ mark. */
export function visible(s) {
  return String(s ?? "").replace(invisible, (c) =>
    "⟦U+" + c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0") + "⟧");
}

/** text returns a Text node of visible(s). */
export function text(s) {
  return document.createTextNode(visible(s));
}

/**
 * h builds an element: tag, attributes (set with setAttribute; "class" and
 * "dataset" handled; names are always the panel's own, values may be model
 * text), then children (strings become text(), null/false are skipped).
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : String(k === "title" ? visible(v) : v));
  }
  append(el, children);
  return el;
}

/** append adds children (nodes, strings, arrays of them) to el. */
export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "string" || typeof c === "number" ? text(String(c)) : c);
  }
  return el;
}

/** clear removes every child of el. */
export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}
