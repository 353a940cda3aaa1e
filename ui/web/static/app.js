// app.js: the web panel of `pincer serve` — the session list, and for the
// open session the workbench card's four panes (transcript, timeline,
// approval queue, diff preview), the input box, cancel and the mode and
// model switches, all live from the session's SSE stream. Model text only
// reaches the page through dom.js (text nodes) and markdown.js (elements).

import { h, clear, append } from "./dom.js";
import { render as markdown, segments } from "./markdown.js";
import { renderDiff } from "./diff.js";
import { newView, apply, summaryRest, T, TL, AP, HD, CH } from "./state.js";
import { api } from "./api.js";
import { follow } from "./stream.js";
import { Queue } from "./approvals.js";

const $ = (id) => document.getElementById(id);

const ui = {
  sessions: [], // the API's session list (children nested)
  cur: null, // {id, session, view, close, children: Map id -> {view, close, agentType}, nodes: Map entry -> {node, v}, callNodes: Map call -> {node, v}, shownSelected}
  selectedCall: "",
  selectedApproval: null,
  dirty: 0,
  frame: 0,
};

const queue = new Queue($("approvals"), answer, (a) => {
  if (a && a !== ui.selectedApproval) ui.selectedCall = ""; // a request shown in the queue: its diff
  ui.selectedApproval = a;
  mark(TL);
});

// --- errors -------------------------------------------------------------

function showError(err) {
  const el = $("error");
  el.textContent = err ? (err.code && err.code !== "network" ? err.code + ": " : "") + (err.message || String(err)) : "";
  el.hidden = !err;
}

// --- session list ------------------------------------------------------

async function loadSessions() {
  try {
    const res = await api.sessions();
    ui.sessions = res.sessions || [];
    renderSessions();
    const s = ui.cur && findSession(ui.cur.id);
    if (s) {
      ui.cur.session = { ...ui.cur.session, ...s };
      mark(HD);
    }
    const cwd = $("new-cwd");
    if (!cwd.value) cwd.value = ui.serverCwd || (ui.sessions.length ? ui.sessions[0].cwd || "" : "");
  } catch (err) {
    showError(err);
  }
}

function renderSessions() {
  const list = clear($("sessions"));
  const add = (parent, s, depth) => {
    const b = h("button", { type: "button", class: "session" + (ui.cur && ui.cur.id === s.id ? " current" : ""), dataset: { sessionId: s.id } },
      h("span", { class: "s-title" }, (s.agentType ? "[" + s.agentType + "] " : "") + (s.title || s.id)),
      h("span", { class: "s-status status-" + (s.running ? "running" : s.status) }, s.running ? "running" : s.status || ""),
      h("span", { class: "s-meta" }, s.cwd || ""));
    b.addEventListener("click", () => open(s.id));
    const li = h("li", { class: depth ? "child" : "" }, b);
    if (s.children && s.children.length) {
      const ul = h("ul", { class: "children" });
      for (const c of s.children) add(ul, c, depth + 1);
      li.append(ul);
    }
    parent.append(li);
  };
  for (const s of ui.sessions) add(list, s, 0);
  if (!ui.sessions.length) list.append(h("li", { class: "empty" }, "No session yet: create one."));
}

function findSession(id, list = ui.sessions) {
  for (const s of list) {
    if (s.id === id) return s;
    const c = findSession(id, s.children || []);
    if (c) return c;
  }
  return null;
}

async function createSession(e) {
  e.preventDefault();
  showError(null);
  const cwd = $("new-cwd").value.trim();
  try {
    const s = await api.createSession(cwd);
    await loadSessions();
    open(s.id, s);
  } catch (err) {
    showError(err);
  }
}

// --- the open session --------------------------------------------------

function closeCurrent() {
  if (!ui.cur) return;
  ui.cur.close();
  for (const c of ui.cur.children.values()) c.close();
  ui.cur = null;
}

async function open(id, known) {
  closeCurrent();
  showError(null);
  ui.selectedCall = "";
  ui.selectedApproval = null;
  queue.reset();
  clear($("transcript"));
  clear($("timeline"));
  const cur = { id, session: known || findSession(id) || { id }, view: newView(id), children: new Map(), nodes: new Map(),
    callNodes: new Map(), shownSelected: "", close: () => {} };
  ui.cur = cur;
  history.replaceState(null, "", "#s=" + encodeURIComponent(id));
  $("empty").hidden = true;
  $("session").hidden = false;
  cur.close = follow(id, (ev) => {
    if (ui.cur === cur) mark(apply(cur.view, ev), ev);
  }, (state) => setConn(state));
  renderSessions();
  mark(HD | T | TL | AP);
  $("input").focus();
  try {
    const s = await api.session(id);
    if (ui.cur === cur) {
      cur.session = s;
      mark(HD);
    }
  } catch (err) {
    showError(err);
  }
}

function setConn(state) {
  const el = $("conn");
  el.textContent = state === "live" ? "live" : state === "reconnecting" ? "reconnecting…" : "disconnected";
  el.className = "conn conn-" + state;
  $("reconnect").hidden = state !== "closed";
}

// followChildren keeps one stream open per running subagent of the open
// session, for its approval requests (labelled [Type] as in the workbench).
function followChildren() {
  const cur = ui.cur;
  for (const [id, ch] of cur.view.children) {
    const have = cur.children.get(id);
    if (ch.running && !have) {
      const child = { view: newView(id), agentType: ch.agentType, close: () => {} };
      child.close = follow(id, (ev) => {
        if (ui.cur === cur && apply(child.view, ev) & AP) mark(AP | TL);
      }, () => {});
      cur.children.set(id, child);
    } else if (!ch.running && have) {
      have.close();
      cur.children.delete(id);
      mark(AP);
    }
  }
}

function pending() {
  const cur = ui.cur;
  const out = [...cur.view.approvals];
  for (const c of cur.children.values()) {
    for (const a of c.view.approvals) out.push({ ...a, label: "[" + (c.agentType || "agent") + "]" });
  }
  return out;
}

async function answer(a, act, reason) {
  try {
    await api.answer(a.requestId, act.decision, act.scope, reason || "");
    $("input").focus(); // answered: back to the input box, as the workbench
  } catch (err) {
    if (err.code === "not_found") {
      // answered elsewhere (a workbench) or its turn ended: it is no longer pending
      for (const v of [ui.cur.view, ...[...ui.cur.children.values()].map((c) => c.view)]) {
        v.approvals = v.approvals.filter((x) => x.requestId !== a.requestId);
      }
      mark(AP);
      return;
    }
    throw err;
  }
}

// --- drawing -----------------------------------------------------------

function mark(flags, ev) {
  if (!flags) return;
  ui.dirty |= flags;
  if (ev && (ev.type === "turn.started" || ev.type === "turn.completed" || ev.type === "turn.failed" || ev.type === "turn.cancelled") && ui.cur && ui.cur.view.lastSeq === ev.sequence) {
    ui.refreshList = true;
  }
  if (!ui.frame) ui.frame = requestAnimationFrame(draw);
}

function draw() {
  ui.frame = 0;
  const flags = ui.dirty;
  ui.dirty = 0;
  if (!ui.cur) return;
  if (flags & CH) followChildren();
  if (flags & HD) drawHeader();
  if (flags & T) drawTranscript();
  if (flags & AP) drawApprovals();
  if (flags & (TL | AP)) drawTimeline();
  if (flags & (TL | AP)) drawDiff();
  if (ui.refreshList) {
    ui.refreshList = false;
    loadSessions();
  }
}

function fmtTokens(n) {
  return n >= 10000 ? (n / 1000).toFixed(1) + "k" : String(n);
}

function drawHeader() {
  const { session: s, view: v } = ui.cur;
  // the list's words: running, else how the last turn ended (cancelled, failed), else idle
  const status = v.running ? "running" : v.ended || (s.status && s.status !== "running" ? s.status : "idle");
  $("s-title").textContent = "";
  append($("s-title"), [s.title || s.id || ""]);
  clear($("s-meta")).append(h("span", { class: "meta-cwd" }, v.cwd || s.cwd || ""), " · ",
    h("span", { class: "meta-model" }, v.model || s.model || ""), " · ",
    h("span", { class: "meta-status status-" + status, id: "s-status" }, status), " · ",
    h("span", { class: "meta-usage" }, "↑" + fmtTokens(v.usage.inputTokens) + " ↓" + fmtTokens(v.usage.outputTokens) +
      (v.usage.costUsd ? " $" + v.usage.costUsd.toFixed(4) : "")));
  const mode = v.mode || s.mode || "default";
  const sel = $("mode");
  if (![...sel.options].some((o) => o.value === mode)) sel.append(h("option", { value: mode }, mode));
  if (document.activeElement !== sel) sel.value = mode;
  if (document.activeElement !== $("model")) $("model").value = v.model || s.model || "";
  $("cancel").disabled = !v.running;
}

function nearBottom(el) {
  return el.scrollHeight - el.scrollTop - el.clientHeight < 48;
}

const statusMark = { receiving: "…", running: "●", waiting: "?", done: "✓", error: "✗", denied: "⊘", unfinished: "–" };

function drawEntry(e) {
  switch (e.kind) {
    case "user":
      return h("div", { class: "msg user" }, h("div", { class: "role" }, "you"), h("div", { class: "body plain" }, e.text));
    case "assistant": {
      const node = h("div", { class: "msg assistant" + (e.done ? "" : " streaming"), dataset: { messageId: e.id || "" } });
      if (e.reasoning) node.append(h("div", { class: "reasoning" }, e.reasoning));
      // the text first, plain (cheap); its Markdown once it comes into view
      const body = h("div", { class: "body md-pending" }, e.text);
      node.append(body);
      node.mdSource = e.text;
      onScreen.observe(node);
      if (e.interrupted) node.append(h("div", { class: "note" }, "(interrupted)"));
      return node;
    }
    case "tool": {
      const c = e.call;
      return h("div", { class: "msg tool status-" + c.status, dataset: { callId: c.id } },
        h("span", { class: "mark" }, statusMark[c.status] || "·"), " ", h("span", { class: "name" }, c.name),
        c.summary ? h("span", { class: "summary" }, " " + summaryRest(c.name, c.summary)) : null);
    }
    default:
      return h("div", { class: "msg notice level-" + (e.level || "info") }, e.text);
  }
}

// streamNode is the node of a streaming assistant message: its text (and
// reasoning) shown plain, as it comes; later deltas are appended to it as
// text nodes (streamInto), and the finished message replaces it with its
// Markdown, rendered once.
function streamNode(e) {
  const r = { stream: true, textLen: 0, reasonLen: 0 };
  r.reasoning = h("div", { class: "reasoning", hidden: true });
  r.body = h("div", { class: "body streaming-text" });
  r.node = h("div", { class: "msg assistant streaming", dataset: { messageId: e.id || "" } }, r.reasoning, r.body);
  streamInto(r, e);
  return r;
}

// streamInto appends what e's text and reasoning gained since r last showed
// them; false when r cannot show e so (e is finished, or its text was not
// extended but replaced): then e is drawn anew.
function streamInto(r, e) {
  if (e.done || e.text.length < r.textLen || e.reasoning.length < r.reasonLen) return false;
  if (e.reasoning.length > r.reasonLen) {
    append(r.reasoning, [e.reasoning.slice(r.reasonLen)]);
    r.reasoning.hidden = false;
    r.reasonLen = e.reasoning.length;
  }
  if (e.text.length > r.textLen) {
    append(r.body, [e.text.slice(r.textLen)]);
    r.textLen = e.text.length;
  }
  return true;
}

// mdChunk is how many characters of Markdown are rendered in one task: a
// long reply is rendered a piece a task and shown whole when done.
const mdChunk = 24000;

// onScreen renders a finished message's Markdown when its node first comes
// near the transcript's view (a long session's log is folded and shown as
// plain text at once; only what is looked at pays for its Markdown).
const onScreen = new IntersectionObserver((seen) => {
  for (const s of seen) {
    if (!s.isIntersecting) continue;
    onScreen.unobserve(s.target);
    renderMarkdown(s.target);
  }
}, { root: document.getElementById("transcript"), rootMargin: "800px 0px" });

function renderMarkdown(node) {
  const src = node.mdSource;
  delete node.mdSource;
  const body = node.querySelector(".body.md-pending");
  if (src === undefined || !body) return;
  const parts = segments(src, mdChunk);
  const frag = document.createDocumentFragment();
  const step = (k) => {
    if (!node.isConnected) return; // replaced or another session opened
    frag.append(markdown(parts[k]));
    if (k + 1 < parts.length) {
      setTimeout(() => step(k + 1), 0);
      return;
    }
    const el = $("transcript");
    const follow = nearBottom(el);
    const md = h("div", { class: "body md" });
    md.append(frag);
    body.replaceWith(md);
    if (follow) el.scrollTop = el.scrollHeight;
  };
  step(0);
}

// drawTranscript draws the entries the view changed since the last frame
// (view.changed): a new entry is appended, a changed one replaced, and a
// streaming message only gets its new text appended.
function drawTranscript() {
  const el = $("transcript");
  const follow = nearBottom(el);
  const { view, nodes } = ui.cur;
  for (const e of view.changed) {
    const had = nodes.get(e);
    if (had && had.v === e.v) continue;
    if (had && had.stream && streamInto(had, e)) {
      had.v = e.v;
      continue;
    }
    const r = e.kind === "assistant" && !e.done ? streamNode(e) : { node: drawEntry(e) };
    r.v = e.v;
    if (had) had.node.replaceWith(r.node);
    else el.append(r.node);
    nodes.set(e, r);
  }
  view.changed.clear();
  if (follow) el.scrollTop = el.scrollHeight;
}

function drawApprovals() {
  const list = pending();
  queue.update(list);
  $("approvals-title").textContent = "3 Approvals" + (list.length ? " (" + list.length + ")" : "");
  document.title = (list.length ? "(" + list.length + ") " : "") + "pincer";
}

function fmtDuration(ms) {
  return ms >= 1000 ? (ms / 1000).toFixed(1) + " s" : ms + " ms";
}

function drawCall(c) {
  const b = h("button", { type: "button", class: "call status-" + c.status + (ui.selectedCall === c.id ? " selected" : ""), dataset: { callId: c.id, status: c.status } },
    h("span", { class: "mark", title: c.status }, statusMark[c.status] || "·"),
    h("span", { class: "name" }, c.name),
    h("span", { class: "summary" }, summaryRest(c.name, c.summary)),
    h("span", { class: "dur" }, c.status === "done" || c.status === "error" || c.status === "denied" ? fmtDuration(c.durationMs) : c.status));
  b.addEventListener("click", () => {
    ui.selectedCall = c.id;
    mark(TL);
  });
  return h("li", {}, b, callResult(c));
}

// outputShown is how much of a tool result the timeline holds (characters).
const outputShown = 20000;

// callResult is what a finished call said, under its row, as the
// workbench's timeline shows it: why it was denied (who, and the reason
// given), and its result text (the model read it) — its first line, the
// whole (cut to outputShown) when opened.
function callResult(c) {
  const out = [];
  if (c.status === "denied") {
    out.push(h("div", { class: "call-why" }, "denied" + (c.deniedBy ? " by " + c.deniedBy : "") + (c.denyReason ? ": " + c.denyReason : "")));
  }
  if (c.output && (c.status === "done" || c.status === "error" || c.status === "denied")) {
    const first = c.output.split("\n", 1)[0].slice(0, 160);
    const lines = c.outputLines || c.output.split("\n").length;
    const cut = c.output.length > outputShown;
    out.push(h("details", { class: "call-output" + (c.isError ? " is-error" : "") },
      h("summary", {}, (c.isError ? "error: " : "") + first + (lines > 1 ? " (" + lines + " lines)" : "")),
      h("pre", {}, cut ? c.output.slice(0, outputShown) : c.output),
      cut ? h("div", { class: "note" }, "(cut: " + c.output.length + " characters)") : null));
  }
  return out;
}

// drawTimeline draws the calls the view changed since the last frame
// (view.changedCalls) and moves the selection mark.
function drawTimeline() {
  const el = $("timeline");
  const cur = ui.cur;
  const view = cur.view;
  if (!view.calls.length) {
    if (!el.querySelector(".empty")) clear(el).append(h("li", { class: "empty" }, "No tool call yet."));
    return;
  }
  el.querySelector(":scope > li.empty")?.remove();
  for (const c of view.changedCalls) {
    const had = cur.callNodes.get(c);
    if (had && had.v === c.v) continue;
    const li = drawCall(c);
    if (had) had.node.replaceWith(li);
    else el.append(li);
    cur.callNodes.set(c, { node: li, v: c.v });
  }
  view.changedCalls.clear();
  if (cur.shownSelected !== ui.selectedCall) {
    for (const id of [cur.shownSelected, ui.selectedCall]) {
      const n = id && cur.callNodes.get(view.byCall.get(id));
      if (n) n.node.querySelector("button.call").classList.toggle("selected", id === ui.selectedCall);
    }
    cur.shownSelected = ui.selectedCall;
  }
}

function drawDiff() {
  const el = clear($("diff"));
  const c = ui.selectedCall ? ui.cur.view.byCall.get(ui.selectedCall) : null;
  const a = ui.selectedApproval;
  let title, diff, note;
  if (c) {
    title = c.name + (c.summary ? ": " + summaryRest(c.name, c.summary) : "");
    diff = c.diff;
    if (!diff) {
      const req = pending().find((x) => x.toolCallId === c.id);
      diff = req ? req.diff : "";
      note = req && req.previewError ? "the call would fail: " + req.previewError : "";
    }
    if (!diff && !note) note = "this call changed no file";
  } else if (a) {
    title = "pending: " + a.name + (a.summary ? ": " + summaryRest(a.name, a.summary) : "");
    diff = a.diff;
    note = a.previewError ? "the call would fail: " + a.previewError : diff ? "" : "this request changes no file";
  } else {
    el.append(h("p", { class: "empty" }, "Select a tool call or a request to see its diff."));
    return;
  }
  el.append(h("div", { class: "diff-title" }, title));
  if (note) el.append(h("p", { class: "note" }, note));
  if (diff) el.append(renderDiff(diff));
}

// --- input, cancel, mode, model ----------------------------------------

async function send() {
  const box = $("input");
  const input = box.value;
  if (!ui.cur || input.trim() === "") return;
  showError(null);
  try {
    await api.submit(ui.cur.id, input);
    box.value = "";
  } catch (err) {
    showError(err);
  }
}

async function cancelTurn() {
  if (!ui.cur) return;
  showError(null);
  try {
    await api.cancel(ui.cur.id);
  } catch (err) {
    showError(err);
  }
}

function wire() {
  $("new-session").addEventListener("submit", createSession);
  $("refresh").addEventListener("click", loadSessions);
  $("reconnect").addEventListener("click", () => ui.cur && open(ui.cur.id, ui.cur.session));
  $("input").addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !e.isComposing && ui.cur && ui.cur.view.running) {
      // Esc cancels the running turn, as in the workbench
      e.preventDefault();
      cancelTurn();
      return;
    }
    if (e.key === "Enter" && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey && !e.isComposing) {
      e.preventDefault();
      send();
    }
  });
  $("send").addEventListener("click", send);
  $("cancel").addEventListener("click", cancelTurn);
  $("mode").addEventListener("change", async (e) => {
    showError(null);
    try {
      const s = await api.setMode(ui.cur.id, e.target.value);
      ui.cur.session = s;
    } catch (err) {
      showError(err);
    }
    mark(HD);
  });
  $("model").addEventListener("keydown", async (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    showError(null);
    try {
      ui.cur.session = await api.setModel(ui.cur.id, e.target.value.trim());
    } catch (err) {
      showError(err);
    }
    mark(HD);
  });
  // Alt+1..4 jump to a pane, Alt+0 back to the input box (the workbench's keys)
  document.addEventListener("keydown", (e) => {
    if (!e.altKey || e.ctrlKey || e.metaKey) return;
    const target = { "1": "transcript", "2": "timeline", "3": null, "4": "diff", "0": "input" }[e.key];
    if (target === undefined) return;
    e.preventDefault();
    if (target === null) queue.focus();
    else $(target).focus();
  });
}

wire();
api.server().then((info) => {
  // the directory pincer serve runs in: the new session's default workspace
  ui.serverCwd = (info && info.cwd) || "";
  if (!$("new-cwd").value) $("new-cwd").value = ui.serverCwd;
}, () => {});
// #s=ID in the address opens that session (at load, and when the address changes)
function openFromHash() {
  const m = /^#s=(.+)$/.exec(location.hash);
  if (m && (!ui.cur || ui.cur.id !== decodeURIComponent(m[1]))) open(decodeURIComponent(m[1]));
}
window.addEventListener("hashchange", openFromHash);
loadSessions().then(openFromHash);
