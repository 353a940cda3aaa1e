// approvals.js: the approval queue, with the workbench's answers in its
// order and words (ui/tui approval_keys.go): y allow once, s allow for the
// session, a always allow, n deny, N deny with a reason. The same guard as
// the workbench's (approvalGrace): a click or key answers a request only once
// it has been on screen, visible, for 400 ms — a click meant for what was
// there before the request appeared answers nothing.

import { h, clear } from "./dom.js";
import { summaryRest } from "./state.js";

/** Actions are the queue's answers: key, label, and the API's decision and scope. */
export const Actions = [
  { key: "y", label: "allow once", decision: "allow", scope: "once" },
  { key: "s", label: "allow for the session", decision: "allow", scope: "session" },
  { key: "a", label: "always allow", decision: "allow", scope: "always" },
  { key: "n", label: "deny", decision: "deny", scope: "once" },
  { key: "N", label: "deny with a reason", decision: "deny", scope: "once", reason: true },
];

/** graceMs is how long a request must have been shown before an answer counts (the workbench's approvalGrace). */
export const graceMs = 400;

/** answerable reports whether an answer at now may answer a request shown since shownAt (0: not shown). */
export function answerable(shownAt, now) {
  return shownAt > 0 && now - shownAt >= graceMs;
}

/** lineCount is how many lines the command s has (0 for none). */
export function lineCount(s) {
  return s ? String(s).split("\n").length : 0;
}

/**
 * commandLines is what the card shows of command s, line by line: a line
 * as it is, and a run of two or more blank lines as one mark ("⋯ 79 blank
 * lines ⋯") so that what follows is in view (as `ls` + 80 newlines + `rm -rf
 * ~/x` would hide the rm below the box). Each: {text, blank} (blank: the
 * mark of a run of n lines).
 */
export function commandLines(s) {
  const out = [];
  const lines = String(s).split("\n");
  for (let i = 0; i < lines.length; ) {
    let j = i;
    while (j < lines.length && lines[j].trim() === "") j++;
    if (j - i >= 2) {
      out.push({ text: "⋯ " + (j - i) + " blank lines ⋯", blank: j - i });
      i = j;
    } else {
      out.push({ text: lines[i], blank: 0 });
      i++;
    }
  }
  return out;
}

// commandBox is the whole command, its line breaks kept, blank runs marked;
// when it is taller than its box, a "more below" cue shows until it is
// scrolled to the end.
function commandBox(command) {
  const pre = h("pre", { class: "ap-command", tabindex: "0" });
  const ls = commandLines(command);
  ls.forEach((l, k) => {
    pre.append(l.blank ? h("span", { class: "ap-blank" }, l.text) : h("span", { class: "ap-line" }, l.text));
    if (k + 1 < ls.length) pre.append("\n");
  });
  const more = h("div", { class: "ap-more", hidden: true }, "▼ more below: scroll the command");
  const cue = () => {
    more.hidden = pre.scrollHeight - pre.scrollTop - pre.clientHeight <= 2;
  };
  pre.addEventListener("scroll", cue);
  new ResizeObserver(cue).observe(pre);
  return h("div", { class: "ap-command-box" }, pre, more);
}

/**
 * Queue draws the pending requests into el, keyed by requestId so a reason
 * being typed survives a redraw. onAnswer(approval, action, reason) answers;
 * onSelect(approval) follows the selection (the diff pane shows its diff).
 */
export class Queue {
  constructor(el, onAnswer, onSelect) {
    this.el = el;
    this.onAnswer = onAnswer;
    this.onSelect = onSelect;
    this.cards = new Map(); // requestId -> {node, approval, shownAt, busy}
    this.selected = "";
    document.addEventListener("visibilitychange", () => {
      // a request drawn in a hidden tab was not seen: its time starts now
      const now = document.visibilityState === "visible" ? performance.now() : 0;
      for (const c of this.cards.values()) c.shownAt = now;
    });
    el.addEventListener("keydown", (e) => this.key(e));
  }

  /** update redraws the queue for approvals (pending, oldest first). */
  update(approvals) {
    const keep = new Set(approvals.map((a) => a.requestId));
    for (const [id, c] of this.cards) {
      if (!keep.has(id)) {
        c.node.remove();
        this.cards.delete(id);
      }
    }
    let prev = null;
    for (const a of approvals) {
      let c = this.cards.get(a.requestId);
      if (!c) {
        c = { approval: a, shownAt: document.visibilityState === "visible" ? performance.now() : 0, busy: false };
        c.node = this.card(c);
        this.cards.set(a.requestId, c);
      }
      c.approval = a;
      if (prev ? prev.nextSibling !== c.node : this.el.firstChild !== c.node) {
        if (prev) prev.after(c.node);
        else this.el.prepend(c.node);
      }
      prev = c.node;
    }
    if (!this.cards.has(this.selected)) this.select(approvals.length ? approvals[0].requestId : "");
    const empty = this.el.querySelector(".empty");
    if (approvals.length === 0 && !empty) this.el.append(h("p", { class: "empty" }, "No request waits."));
    if (approvals.length > 0 && empty) empty.remove();
  }

  card(c) {
    const a = c.approval;
    const node = h("div", { class: "approval", tabindex: "0", dataset: { requestId: a.requestId } },
      h("div", { class: "ap-title" }, a.label ? h("span", { class: "ap-label" }, a.label + " ") : null,
        h("span", { class: "ap-name" }, a.name), a.summary ? ": " : "", h("span", { class: "ap-summary" }, summaryRest(a.name, a.summary)),
        lineCount(a.command) > 1 ? h("span", { class: "ap-lines" }, " · " + lineCount(a.command) + " lines") : null),
      a.reason ? h("div", { class: "ap-reason" }, a.reason) : null,
      a.command ? commandBox(a.command) : null,
      a.previewError ? h("div", { class: "ap-preview-error" }, "the call would fail: " + a.previewError) : null,
      a.diff ? h("div", { class: "ap-hint" }, "its diff is in the Diff pane") : null);
    const actions = h("div", { class: "ap-actions" });
    const reasonBox = h("div", { class: "ap-reason-box", hidden: true });
    const reasonInput = h("input", { type: "text", class: "ap-reason-input", "aria-label": "reason for the denial", placeholder: "reason (the model reads it)" });
    const reasonSend = h("button", { type: "button", class: "ap-reason-send" }, "deny");
    reasonBox.append(reasonInput, reasonSend);
    for (const act of Actions) {
      const b = h("button", { type: "button", class: "ap-act ap-" + act.key, dataset: { act: act.key }, title: "key " + act.key },
        h("kbd", {}, act.key), " " + act.label);
      b.addEventListener("click", (e) => {
        e.stopPropagation();
        this.act(c, act, reasonBox, reasonInput);
      });
      actions.append(b);
    }
    const sendReason = () => this.give(c, Actions[4], reasonInput.value);
    reasonSend.addEventListener("click", sendReason);
    reasonInput.addEventListener("keydown", (e) => {
      e.stopPropagation(); // letters type here, they answer nothing
      if (e.key === "Enter") {
        e.preventDefault();
        sendReason();
      } else if (e.key === "Escape") {
        reasonBox.hidden = true;
        node.focus();
      }
    });
    const status = h("div", { class: "ap-status", role: "status" });
    node.append(actions, reasonBox, status);
    node.addEventListener("focus", () => this.select(a.requestId));
    node.addEventListener("click", () => this.select(a.requestId));
    return node;
  }

  select(id) {
    this.selected = id;
    for (const [rid, c] of this.cards) c.node.classList.toggle("selected", rid === id);
    this.onSelect(this.cards.get(id)?.approval || null);
  }

  act(c, act, reasonBox, reasonInput) {
    if (!answerable(c.shownAt, performance.now())) {
      this.say(c, "read the request first");
      return;
    }
    if (act.reason) {
      reasonBox.hidden = false;
      reasonInput.focus();
      return;
    }
    this.give(c, act, "");
  }

  give(c, act, reason) {
    if (c.busy) return;
    if (!answerable(c.shownAt, performance.now())) {
      this.say(c, "read the request first");
      return;
    }
    c.busy = true;
    c.node.classList.add("busy");
    for (const b of c.node.querySelectorAll("button")) b.disabled = true;
    this.say(c, act.label + "…");
    Promise.resolve(this.onAnswer(c.approval, act, reason)).catch((err) => {
      c.busy = false;
      c.node.classList.remove("busy");
      for (const b of c.node.querySelectorAll("button")) b.disabled = false;
      this.say(c, err.message);
    });
  }

  say(c, msg) {
    c.node.querySelector(".ap-status").textContent = msg;
  }

  key(e) {
    if (e.target.tagName === "INPUT" || e.altKey || e.ctrlKey || e.metaKey) return;
    const ids = [...this.cards.keys()];
    const at = ids.indexOf(this.selected);
    if (e.key === "ArrowDown" || e.key === "j" || e.key === "ArrowUp" || e.key === "k") {
      const next = ids[Math.max(0, Math.min(ids.length - 1, at + (e.key === "ArrowDown" || e.key === "j" ? 1 : -1)))];
      if (next) this.cards.get(next).node.focus();
      e.preventDefault();
      return;
    }
    const act = Actions.find((x) => x.key === e.key);
    const c = this.cards.get(this.selected);
    if (!act || !c) return;
    e.preventDefault();
    this.act(c, act, c.node.querySelector(".ap-reason-box"), c.node.querySelector(".ap-reason-input"));
  }

  /** focus puts the keyboard focus on the selected request (Alt+3). */
  focus() {
    const c = this.cards.get(this.selected);
    if (c) c.node.focus();
    else this.el.focus();
  }

  /** reset empties the queue (another session is opened). */
  reset() {
    clear(this.el);
    this.cards.clear();
    this.selected = "";
  }
}
