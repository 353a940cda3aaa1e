// state.js: one session's view, reduced from its event log (the flat event
// JSON of stream-json, as the SSE stream carries it). Pure: apply(view, ev)
// updates view and returns what changed, so the panel redraws only that: the
// flags say which panes, and view.changed / view.changedCalls hold the
// transcript entries and timeline calls touched since the panel last drew
// (the panel empties them), so a frame draws only those — opening a session
// of thousands of events folds them all without touching the page, and the
// next animation frame draws each entry once.
// Events are de-duplicated by sequence (the mx-claw seed's rule: several
// clients share one log; a reconnect must neither repeat nor miss): an event
// whose sequence is not above the last one applied is dropped.

/** newView returns the empty view of a session. */
export function newView(sessionId) {
  return {
    sessionId,
    lastSeq: 0,
    entries: [], // transcript: {kind, v, ...}
    byMessage: new Map(), // messageId -> assistant entry
    calls: [], // timeline, in order of appearance
    byCall: new Map(), // toolCallId -> call
    approvals: [], // pending permission requests, oldest first
    children: new Map(), // childSessionId -> {agentType, description, running}
    mode: "",
    model: "",
    cwd: "",
    running: false,
    ended: "", // how the last turn ended: "idle" (completed), "cancelled", "failed"; "" before one ended
    turnId: "",
    usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
    changed: new Set(), // entries added or changed since the panel drew (it clears the set)
    changedCalls: new Set(), // calls added or changed since the panel drew (it clears the set)
  };
}

/** Changed flags apply returns: which panes need a redraw. */
export const T = 1, TL = 2, AP = 4, HD = 8, CH = 16;

function entry(view, e) {
  e.v = 1;
  view.entries.push(e);
  view.changed.add(e);
  return e;
}

function touch(view, e) {
  e.v++;
  view.changed.add(e);
}

function call(view, id, name) {
  let c = view.byCall.get(id);
  if (!c) {
    c = { id, name, summary: "", status: "receiving", durationMs: 0, diff: "", output: "", outputLines: 0, isError: false,
      deniedBy: "", denyReason: "", turnId: view.turnId, v: 1 };
    view.byCall.set(id, c);
    view.calls.push(c);
    view.changedCalls.add(c);
    c.entry = entry(view, { kind: "tool", call: c });
  }
  return c;
}

function touchCall(view, c) {
  c.v++;
  view.changedCalls.add(c);
  touch(view, c.entry);
}

/**
 * apply reduces one event ev (flat JSON object) into view and returns the
 * changed flags (0 when ev was a duplicate or changes nothing shown).
 */
export function apply(view, ev) {
  if (!ev || typeof ev.sequence !== "number" || ev.sequence <= view.lastSeq) return 0;
  view.lastSeq = ev.sequence;
  switch (ev.type) {
    case "session.created":
      view.cwd = ev.cwd || "";
      view.model = ev.model || view.model;
      return HD;
    case "turn.started":
      view.running = true;
      view.ended = "";
      view.turnId = ev.turnId || "";
      entry(view, { kind: "user", text: ev.input || "" });
      return T | HD;
    case "message.delta": {
      let m = view.byMessage.get(ev.messageId);
      if (!m) {
        m = entry(view, { kind: "assistant", id: ev.messageId, text: "", reasoning: "", done: false });
        view.byMessage.set(ev.messageId, m);
      }
      if (ev.kind === "reasoning") m.reasoning += ev.delta || "";
      else m.text += ev.delta || "";
      touch(view, m);
      return T;
    }
    case "message.completed": {
      if (ev.role && ev.role !== "assistant") return 0;
      let m = view.byMessage.get(ev.messageId);
      if (!m) {
        if (!ev.text && !ev.reasoning) return 0;
        m = entry(view, { kind: "assistant", id: ev.messageId, text: "", reasoning: "", done: false });
        view.byMessage.set(ev.messageId, m);
      }
      m.text = ev.text || "";
      m.reasoning = ev.reasoning || "";
      m.done = true;
      m.interrupted = !!ev.interrupted;
      touch(view, m);
      return T;
    }
    case "tool.receiving": {
      if (!ev.toolCallId) return 0;
      call(view, ev.toolCallId, ev.name);
      return T | TL;
    }
    case "tool.started": {
      const c = call(view, ev.toolCallId, ev.name);
      c.name = ev.name || c.name;
      c.summary = ev.summary || c.summary;
      if (c.status === "receiving") c.status = "running";
      touchCall(view, c);
      return T | TL;
    }
    case "tool.completed": {
      const c = call(view, ev.toolCallId, ev.name);
      c.name = ev.name || c.name;
      c.summary = ev.summary || c.summary;
      c.durationMs = ev.durationMs || 0;
      c.diff = ev.diff || "";
      c.output = ev.output || "";
      c.outputLines = ev.outputLines || 0;
      c.isError = !!ev.isError;
      c.deniedBy = ev.deniedBy || c.deniedBy;
      c.status = ev.deniedBy ? "denied" : ev.isError ? "error" : "done";
      touchCall(view, c);
      return T | TL;
    }
    case "permission.requested": {
      view.approvals.push({
        requestId: ev.requestId, sessionId: view.sessionId, toolCallId: ev.toolCallId || "", name: ev.name || "",
        summary: ev.summary || "", reason: ev.reason || "", command: ev.command || "", diff: ev.diff || "",
        previewError: ev.previewError || "", label: "", turnId: ev.turnId || view.turnId,
      });
      const c = ev.toolCallId ? call(view, ev.toolCallId, ev.name) : null;
      if (c) {
        if (!c.summary) c.summary = ev.summary || "";
        c.status = "waiting";
        touchCall(view, c);
      }
      return AP | TL | T;
    }
    case "permission.resolved": {
      const before = view.approvals.length;
      view.approvals = view.approvals.filter((a) => a.requestId !== ev.requestId);
      const c = ev.toolCallId ? view.byCall.get(ev.toolCallId) : null;
      if (c && c.status === "waiting") {
        c.status = ev.decision === "allow" ? "running" : "denied";
        if (ev.decision !== "allow") {
          c.deniedBy = ev.by || c.deniedBy;
          c.denyReason = ev.reason || "";
        }
        touchCall(view, c);
      }
      return (before !== view.approvals.length ? AP : 0) | TL | T;
    }
    case "usage":
      view.usage.inputTokens += ev.inputTokens || 0;
      view.usage.outputTokens += ev.outputTokens || 0;
      view.usage.costUsd += typeof ev.costUsd === "number" ? ev.costUsd : 0;
      return HD;
    case "turn.completed":
    case "turn.failed":
    case "turn.cancelled": {
      view.running = false;
      view.ended = ev.type === "turn.cancelled" ? "cancelled" : ev.type === "turn.failed" ? "failed" : "idle";
      // the turn's requests are over (its process decided or denied them)
      const turn = ev.turnId || view.turnId;
      view.approvals = view.approvals.filter((a) => a.turnId && a.turnId !== turn);
      for (const c of view.calls) {
        if ((c.status === "running" || c.status === "waiting" || c.status === "receiving") && (!c.turnId || c.turnId === turn)) {
          c.status = "unfinished";
          touchCall(view, c);
        }
      }
      if (ev.type === "turn.failed") entry(view, { kind: "end", level: "error", text: "turn failed: " + (ev.error || ev.reason || "") });
      if (ev.type === "turn.cancelled") entry(view, { kind: "end", level: "warning", text: "turn cancelled" + (ev.reason ? ": " + ev.reason : "") });
      return T | TL | AP | HD;
    }
    case "notice":
      entry(view, { kind: "notice", level: ev.level || "info", text: (ev.source ? ev.source + ": " : "") + (ev.message || "") });
      return T;
    case "mode.changed":
      view.mode = ev.mode || "";
      return HD;
    case "model.changed":
      view.model = ev.model || "";
      return HD;
    case "compaction.completed":
      entry(view, { kind: "notice", level: "info", text: "context compacted: " + (ev.beforeTokens || 0) + " → " + (ev.afterTokens || 0) + " tokens" });
      return T;
    case "subagent.started":
      view.children.set(ev.childSessionId, { agentType: ev.agentType || "", description: ev.description || "", running: true });
      return CH;
    case "subagent.completed": {
      const ch = view.children.get(ev.childSessionId);
      if (ch) ch.running = false;
      return CH;
    }
  }
  return 0;
}

/** EventTypes is every event type the SSE stream names (core/event), for EventSource listeners. */
export const EventTypes = [
  "session.created", "turn.started", "message.delta", "message.completed", "tool.receiving", "tool.started",
  "tool.completed", "permission.requested", "permission.resolved", "permission.answered", "usage",
  "compaction.completed", "turn.completed", "turn.failed", "turn.cancelled", "notice", "mode.changed",
  "model.changed", "subagent.started", "subagent.completed", "shell.started", "shell.exited",
  "team.created", "team.deleted", "team.message",
];

/**
 * summaryRest is a call's summary without the tool's name in front ("Edit
 * hello.txt" -> "hello.txt", "Bash: ls" -> "ls"): where the panel shows the
 * name beside it. A summary that does not start with the name is kept.
 */
export function summaryRest(name, summary) {
  const s = String(summary || "");
  if (!name) return s;
  for (const sep of [": ", " "]) {
    if (s.startsWith(name + sep)) return s.slice(name.length + sep.length);
  }
  return s === name ? "" : s;
}
