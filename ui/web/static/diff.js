// diff.js: a unified diff (model-controlled: file names and lines are the
// model's) as a <pre> of one line element per diff line, coloured by kind:
// added "+", removed "-", hunk "@@", file header ("---", "+++", "diff ",
// "index "), context. Text only, through dom.js.

import { h } from "./dom.js";

/** lineKind classifies one line of a unified diff: add, del, hunk, meta or ctx. */
export function lineKind(line) {
  if (line.startsWith("+++ ") || line.startsWith("--- ") || line.startsWith("diff ") ||
    line.startsWith("index ") || line.startsWith("\\ ")) return "meta";
  if (line.startsWith("@@")) return "hunk";
  if (line.startsWith("+")) return "add";
  if (line.startsWith("-")) return "del";
  return "ctx";
}

/** renderDiff returns the <pre class="diff"> of the unified diff d. */
export function renderDiff(d) {
  const pre = h("pre", { class: "diff" });
  const lines = String(d ?? "").replace(/\n$/, "").split("\n");
  for (const line of lines) {
    pre.append(h("span", { class: "dl dl-" + lineKind(line) }, line));
  }
  return pre;
}
