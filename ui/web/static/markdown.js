// markdown.js: a small Markdown renderer that builds DOM elements (never
// HTML strings). The source is model text: raw HTML is shown as the text it
// is, links are made only for absolute http/https URLs (rel="noopener
// noreferrer", target=_blank; any other scheme — javascript:, data:, file:,
// relative paths into the panel's own API — stays plain text), and images are
// never fetched: ![alt](src) shows as the text "[image: alt]". Supported:
// ATX headings, paragraphs (a newline is a line break, as the workbench shows
// it), fenced code, indented lists (- * + and 1.), blockquotes, rules, pipe
// tables, and inline code, **strong**, *em*, ~~strike~~, links, <autolinks>
// and backslash escapes.

import { h, text } from "./dom.js";

/** safeURL returns the normalized href of an absolute http(s) URL, else "". */
export function safeURL(raw) {
  let u;
  try {
    u = new URL(String(raw).trim());
  } catch {
    return "";
  }
  return u.protocol === "http:" || u.protocol === "https:" ? u.href : "";
}

/** render returns a DocumentFragment for the Markdown source src. */
export function render(src) {
  const frag = document.createDocumentFragment();
  blocks(String(src ?? "").replace(/\r\n?/g, "\n").split("\n"), frag, 0);
  return frag;
}

const reFence = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const reHeading = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$/;
const reRule = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const reQuote = /^ {0,3}> ?(.*)$/;
const reItem = /^( {0,3})([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
const reTableSep = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

// maxDepth bounds nesting (quotes in lists in quotes...): deeper input is text.
const maxDepth = 16;

function startsBlock(line, next) {
  return reFence.test(line) || reHeading.test(line) || reRule.test(line) || reQuote.test(line) ||
    reItem.test(line) || (line.includes("|") && next !== undefined && reTableSep.test(next));
}

function blocks(lines, parent, depth) {
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    let m;
    if (line.trim() === "") {
      i++;
    } else if (depth < maxDepth && (m = reFence.exec(line))) {
      const fence = m[1];
      const lang = m[2].trim().split(/\s+/)[0] || "";
      const body = [];
      i++;
      while (i < lines.length && !(lines[i].trim().startsWith(fence[0].repeat(fence.length)) &&
        lines[i].trim().replace(new RegExp("^\\" + fence[0] + "+"), "").trim() === "")) {
        body.push(lines[i]);
        i++;
      }
      i++; // the closing fence (or the end)
      parent.append(h("pre", { class: "code", dataset: lang ? { lang } : {} }, h("code", {}, body.join("\n"))));
    } else if ((m = reHeading.exec(line))) {
      parent.append(inline(h("h" + m[1].length, {}), m[2] || ""));
      i++;
    } else if (reRule.test(line)) {
      parent.append(h("hr"));
      i++;
    } else if (depth < maxDepth && reQuote.test(line)) {
      const body = [];
      while (i < lines.length && (m = reQuote.exec(lines[i]))) {
        body.push(m[1]);
        i++;
      }
      const q = h("blockquote");
      blocks(body, q, depth + 1);
      parent.append(q);
    } else if (depth < maxDepth && (m = reItem.exec(line))) {
      i = list(lines, i, parent, depth);
    } else if (line.includes("|") && i + 1 < lines.length && reTableSep.test(lines[i + 1])) {
      i = table(lines, i, parent);
    } else {
      const para = [line];
      i++;
      while (i < lines.length && lines[i].trim() !== "" && !startsBlock(lines[i], lines[i + 1])) {
        para.push(lines[i]);
        i++;
      }
      parent.append(inline(h("p"), para.map((l) => l.trim()).join("\n")));
    }
  }
}

// list renders the list starting at lines[i] and returns the index after it.
function list(lines, i, parent, depth) {
  const first = reItem.exec(lines[i]);
  const ordered = /\d/.test(first[2]);
  const el = ordered ? h("ol", /^\d+/.test(first[2]) && parseInt(first[2], 10) !== 1 ? { start: String(parseInt(first[2], 10)) } : {}) : h("ul");
  while (i < lines.length) {
    const m = reItem.exec(lines[i]);
    if (!m || /\d/.test(m[2]) !== ordered) break;
    const indent = m[1].length + m[2].length + 1;
    const body = [m[3]];
    i++;
    while (i < lines.length) {
      const l = lines[i];
      if (l.trim() === "") {
        // a blank line continues the item only when indented content follows
        if (i + 1 < lines.length && /^\s+\S/.test(lines[i + 1]) && lines[i + 1].search(/\S/) >= indent) {
          body.push("");
          i++;
          continue;
        }
        break;
      }
      const lead = l.search(/\S/);
      if (lead >= Math.min(indent, 2) && lead > m[1].length) {
        body.push(l.slice(Math.min(lead, indent)));
      } else if (!reItem.test(l) && !startsBlock(l, lines[i + 1])) {
        body.push(l); // a lazy continuation line of the item's paragraph
      } else {
        break;
      }
      i++;
    }
    const li = h("li");
    if (body.length === 1 && !startsBlock(body[0])) inline(li, body[0]);
    else blocks(body, li, depth + 1);
    el.append(li);
  }
  parent.append(el);
  return i;
}

function cells(line) {
  let s = line.trim();
  if (s.startsWith("|")) s = s.slice(1);
  if (s.endsWith("|") && !s.endsWith("\\|")) s = s.slice(0, -1);
  const out = [];
  let cur = "";
  for (let k = 0; k < s.length; k++) {
    if (s[k] === "\\" && s[k + 1] === "|") {
      cur += "|";
      k++;
    } else if (s[k] === "|") {
      out.push(cur.trim());
      cur = "";
    } else cur += s[k];
  }
  out.push(cur.trim());
  return out;
}

function table(lines, i, parent) {
  const head = cells(lines[i]);
  const aligns = cells(lines[i + 1]).map((c) =>
    c.startsWith(":") && c.endsWith(":") ? "center" : c.endsWith(":") ? "right" : c.startsWith(":") ? "left" : "");
  const tr = h("tr");
  head.forEach((c, k) => tr.append(inline(h("th", aligns[k] ? { class: "align-" + aligns[k] } : {}), c)));
  const tbody = h("tbody");
  i += 2;
  while (i < lines.length && lines[i].trim() !== "" && lines[i].includes("|")) {
    const row = h("tr");
    const cs = cells(lines[i]);
    head.forEach((_, k) => row.append(inline(h("td", aligns[k] ? { class: "align-" + aligns[k] } : {}), cs[k] ?? "")));
    tbody.append(row);
    i++;
  }
  parent.append(h("div", { class: "table-wrap" }, h("table", {}, h("thead", {}, tr), tbody)));
  return i;
}

const punct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

/** inline appends the inline Markdown of s to el and returns el. */
export function inline(el, s) {
  inlineInto(el, s, 0);
  return el;
}

function inlineInto(el, s, depth) {
  let buf = "";
  const flush = () => {
    if (buf) el.append(text(buf));
    buf = "";
  };
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === "\\" && i + 1 < s.length && punct.includes(s[i + 1])) {
      buf += s[i + 1];
      i += 2;
      continue;
    }
    if (c === "\n") {
      flush();
      el.append(h("br"));
      i++;
      continue;
    }
    if (c === "`") {
      let n = 0;
      while (s[i + n] === "`") n++;
      const ticks = "`".repeat(n);
      const end = s.indexOf(ticks, i + n);
      if (end > 0 && s[end + n] !== "`") {
        flush();
        let code = s.slice(i + n, end).replace(/\n/g, " ");
        if (code.length > 2 && code.startsWith(" ") && code.endsWith(" ")) code = code.slice(1, -1);
        el.append(h("code", {}, code));
        i = end + n;
        continue;
      }
      buf += ticks;
      i += n;
      continue;
    }
    if (c === "<") {
      const m = /^<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*)>/.exec(s.slice(i));
      if (m) {
        const href = safeURL(m[1]);
        flush();
        el.append(href ? link(href, m[1]) : text(m[0]));
        i += m[0].length;
        continue;
      }
    }
    if ((c === "[" || (c === "!" && s[i + 1] === "[")) && depth < maxDepth) {
      const r = linkAt(s, c === "!" ? i + 1 : i);
      if (r) {
        flush();
        if (c === "!") {
          el.append(h("span", { class: "md-image" }, "[image: " + r.label + "]"));
        } else {
          const href = safeURL(r.url);
          if (href) {
            const a = link(href, null);
            inlineInto(a, r.label, depth + 1);
            el.append(a);
          } else {
            // not a safe link: its text and its target, both as text
            const span = h("span", { class: "md-badlink" });
            inlineInto(span, r.label, depth + 1);
            span.append(text(" (" + r.url + ")"));
            el.append(span);
          }
        }
        i = r.end;
        continue;
      }
    }
    if ((c === "*" || c === "_" || c === "~") && depth < maxDepth) {
      let n = 0;
      while (s[i + n] === c && n < 3) n++;
      const r = emphasisAt(s, i, c, n);
      if (r) {
        flush();
        const tag = c === "~" ? "del" : r.n >= 2 ? "strong" : "em";
        const inner = h(tag);
        if (r.n === 3) {
          const em = h("em");
          inlineInto(em, r.body, depth + 1);
          inner.append(em);
        } else inlineInto(inner, r.body, depth + 1);
        el.append(inner);
        i = r.end;
        continue;
      }
      buf += c.repeat(n);
      i += n;
      continue;
    }
    buf += c;
    i++;
  }
  flush();
}

function link(href, label) {
  const a = h("a", { href, target: "_blank", rel: "noopener noreferrer" });
  if (label !== null) a.append(text(label));
  return a;
}

// linkAt reads [label](url "title") at s[i] === "[": {label, url, end} or null.
function linkAt(s, i) {
  let depth = 0;
  let k = i;
  for (; k < s.length; k++) {
    if (s[k] === "\\") {
      k++;
      continue;
    }
    if (s[k] === "[") depth++;
    else if (s[k] === "]" && --depth === 0) break;
  }
  if (k >= s.length || s[k + 1] !== "(") return null;
  const label = s.slice(i + 1, k);
  let j = k + 2;
  let url;
  if (s[j] === "<") {
    const close = s.indexOf(">", j);
    if (close < 0) return null;
    url = s.slice(j + 1, close);
    j = close + 1;
  } else {
    let parens = 0;
    const start = j;
    for (; j < s.length; j++) {
      const ch = s[j];
      if (ch === " " || ch === "\n") break;
      if (ch === "(") parens++;
      else if (ch === ")") {
        if (parens === 0) break;
        parens--;
      }
    }
    url = s.slice(start, j);
  }
  const rest = /^[ \t]*(?:"[^"]*"|'[^']*')?[ \t]*\)/.exec(s.slice(j));
  if (!rest) return null;
  return { label, url, end: j + rest[0].length };
}

// emphasisAt finds the closing run of n delimiters c for the run at s[i]:
// {body, n, end} or null. An opening run must be followed by a non-space and
// "_" must not sit inside a word (snake_case stays text).
function emphasisAt(s, i, c, n) {
  if (c === "~" && n !== 2) return null;
  const after = s[i + n];
  if (after === undefined || /\s/.test(after)) return null;
  if (c === "_" && i > 0 && /[\p{L}\p{N}]/u.test(s[i - 1])) return null;
  const run = c.repeat(n);
  let from = i + n;
  for (;;) {
    const end = s.indexOf(run, from);
    if (end < 0) {
      return n > 1 && c !== "~" ? emphasisAt(s, i, c, n - 1) : null;
    }
    const body = s.slice(i + n, end);
    const closeOK = body.length > 0 && !/\s/.test(s[end - 1]) &&
      !(c === "_" && /[\p{L}\p{N}]/u.test(s[end + n] ?? ""));
    if (closeOK && s[end + n] !== c) return { body, n, end: end + n };
    from = end + 1;
  }
}

/**
 * segments cuts the Markdown source src into pieces of about size
 * characters that render as the whole does, one after the other: a cut is
 * only made at a blank line outside fenced code whose next line starts a
 * new top-level block (not indented, not a list item, not a table row). A
 * long message is rendered a piece per task (the page stays responsive).
 */
export function segments(src, size) {
  const lines = String(src ?? "").replace(/\r\n?/g, "\n").split("\n");
  const out = [];
  let start = 0, chars = 0, fence = "";
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    chars += l.length + 1;
    const m = reFence.exec(l);
    if (m && (!fence || (l.trim().startsWith(fence) && l.trim().replace(new RegExp("^\\" + fence[0] + "+"), "").trim() === ""))) {
      fence = fence ? "" : m[1];
      continue;
    }
    const next = lines[i + 1];
    if (!fence && chars >= size && l.trim() === "" && next !== undefined && /^\S/.test(next) &&
      !reItem.test(next) && !next.includes("|")) {
      out.push(lines.slice(start, i + 1).join("\n"));
      start = i + 1;
      chars = 0;
    }
  }
  out.push(lines.slice(start).join("\n"));
  return out;
}
