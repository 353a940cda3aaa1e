package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"pincer/core/event"
	"pincer/core/hook"
	"pincer/core/permission"
	"pincer/sandbox"
	"pincer/tools"
)

// permissionInput describes a prepared call to the permission engine: its paths for
// file tools, its command for Bash, its URL for fetches.
func (t *turn) permissionInput(env *tools.Env, p *prepared) permission.Input {
	// The tool's own name: a call of Task (the Agent tool's older name) is
	// decided on as Agent.
	in := t.fileInput(p.tool.Spec().Name, string(p.tool.Spec().Kind), tools.Paths(p.tool, env, p.input))
	in.Summary = p.summary
	var fields struct {
		Command string `json:"command"`
		URL     string `json:"url"`
	}
	_ = json.Unmarshal(p.input, &fields)
	if p.tool.Spec().Kind == tools.KindExecute {
		in.Command = fields.Command
	}
	if p.tool.Spec().Kind == tools.KindEdit {
		in.Linked = hardLinked(t.a.cfg.Workspace, in.Paths)
	}
	if k := p.tool.Spec().Kind; k == tools.KindEdit || k == tools.KindExecute {
		in.Instructions = t.a.importedInstructions()
		in.TrustedCode = t.a.cfg.TrustedCode
	}
	in.URL = fields.URL
	if _, ok := p.tool.(*agentTool); ok {
		var a agentInput
		_ = json.Unmarshal(p.input, &a)
		in.AgentType = agentTypeOr(a.SubagentType)
	}
	return in
}

// fileInput is the permission input of a call of tool (of kind) on paths, in
// this agent's workspace.
func (t *turn) fileInput(tool, kind string, paths []string) permission.Input {
	return permission.Input{Tool: tool, Kind: kind, Paths: paths, Workspace: t.a.cfg.Workspace.Root(),
		Cwd: t.a.cfg.Workspace.Root(), Home: t.a.cfg.Home, AddedDirs: t.a.cfg.Workspace.GrantedDirs()}
}

// hardLinked returns the paths among paths that are regular files with more
// than one hard link (sandbox.Workspace.HardLinked, examined through the
// workspace's os.Root without following a final symlink), for
// permission.Input.Linked: such a file may be another name of a file outside
// the workspace, so a write to it asks in every mode. nil when there is none.
func hardLinked(ws *sandbox.Workspace, paths []string) []string {
	var linked []string
	for _, p := range paths {
		if ws.Contains(p) && ws.HardLinked(p) {
			linked = append(linked, p)
		}
	}
	return linked
}

// grantOutside lets the call read the paths outside the workspace that d
// allowed (tools.FileState.GrantOutside) — but only when a person approved
// the call (asked) or an allow rule allowed it, never a mode's default such as
// bypassPermissions: the workspace guard holds in every mode unless the user
// said otherwise. Only read calls get grants; writes outside stay refused by
// the tools.
func grantOutside(env *tools.Env, kind tools.Kind, callID string, in permission.Input, d permission.Decision, asked bool) {
	if env == nil || env.Files == nil || env.Workspace == nil || kind != tools.KindRead ||
		d.Behavior != permission.Allow || (!asked && d.Rule == "") {
		return
	}
	for _, p := range in.Paths {
		if !env.Workspace.Contains(p) {
			env.Files.GrantOutside(callID, p)
		}
	}
}

// permit decides one call: the rules and mode (permission.Evaluate), adjusted by the
// PreToolUse hooks' decision — a hook's ask forces the prompt, a hook's allow skips
// it but never overrides a deny — then, for an ask, the Approver (or, headless, a
// denial naming the flag that would allow it). An ask whose preview says the call
// cannot succeed (tools.CannotSucceed: not read yet, old_string not found, ...)
// is not put to anyone: it becomes a denial By "tool" and the call fails with the
// tool's own error (prepared.cannotSucceed) — an earlier failure, never an
// allow. Asks are announced with
// permission.requested / permission.resolved; every decision is audited.
func (t *turn) permit(ctx, bg context.Context, env *tools.Env, p *prepared, pre hook.PreToolResult) permission.Decision {
	in := t.permissionInput(env, p)
	d := permission.Evaluate(t.a.Mode(), t.rules, in)
	switch {
	case pre.Decision == hook.Ask && d.Behavior == permission.Allow && d.By != "hard-deny":
		d = permission.Decision{Behavior: permission.Ask, Reason: hookReason("a PreToolUse hook asks for approval", pre.Reason), By: "hook"}
	case pre.Decision == hook.Allow && d.Behavior == permission.Ask:
		d = permission.Decision{Behavior: permission.Allow, Reason: hookReason("allowed by a PreToolUse hook", pre.Reason), By: "hook"}
	}
	d = t.classify(ctx, bg, p, in, d)
	d = confinable(env, d)
	if taintConfines(t.a.cfg.Workspace, in.Tool, d, t.personsOwn(d)) {
		d = confinableTainted(env, d)
	}
	if p.tool.Spec().AskAlways && d.Behavior == permission.Allow {
		// No rule, mode or hook answers for a person here (ConfigEdit).
		d = permission.Decision{Behavior: permission.Ask, By: "tool",
			Reason: fmt.Sprintf("%s changes pincer's own configuration: every call asks, in every mode", p.call.ToolName)}
	}
	if d.Behavior == permission.Ask && t.a.Mode() == permission.ModeDontAsk {
		d = permission.Decision{Behavior: permission.Deny, Reason: d.Reason + " (dontAsk mode denies what no rule allows)", By: d.By}
	}
	asked := d.Behavior == permission.Ask
	var scope permission.Scope
	if asked {
		pv := t.preview(env, p)
		if pv.cannotSucceed { // fail now, as Run would, rather than ask a person about a call that cannot succeed
			p.cannotSucceed = pv.failure
			d = permission.Decision{Behavior: permission.Deny, By: "tool",
				Reason: "not asked: the call cannot succeed (" + pv.failure + ")"}
			asked = false
		} else {
			d, scope = t.ask(ctx, bg, p, in, d, pv)
		}
	}
	p.personal = d.Behavior == permission.Allow && (asked || t.personsOwn(d))
	if taints(p, d) {
		t.a.cfg.Workspace.TaintReads() // before it runs: it may run on in the background
	}
	t.audit(bg, p, in, d, scope)
	grantOutside(env, p.tool.Spec().Kind, p.call.ToolCallID, in, d, asked)
	return d
}

// ask puts a call in front of the Approver and applies the answer's scope,
// which it returns with the decision. The request carries pv, the would-be
// diff of a tool that changes files (or why it could not be shown).
func (t *turn) ask(ctx, bg context.Context, p *prepared, in permission.Input, d permission.Decision, pv previewed) (permission.Decision, permission.Scope) {
	requestID := "perm-" + newID()
	err := t.emit(bg, event.PermissionRequested, event.PermissionRequestedData{
		RequestID: requestID, ToolCallID: p.call.ToolCallID, Name: p.call.ToolName, Summary: p.summary, Reason: d.Reason,
		Diff: pv.diff, PreviewError: pv.failure, Command: in.Command,
	})
	ans := Approval{Scope: permission.ScopeOnce}
	switch {
	case err != nil: // no approval without its record: nobody could see what they approve
		ans.Decision = permission.Decision{Behavior: permission.Deny, By: "pincer",
			Reason: "the approval request could not be recorded (" + err.Error() + "), so it was not asked"}
	case t.a.cfg.Approver != nil:
		ans = t.a.cfg.Approver.Approve(ctx, t.sess.ID, requestID, in, d)
	default:
		ans.Decision = permission.HeadlessDenial(t.a.Mode(), in)
		if d.By == confineBy { // say why a rule's allow was not enough
			ans.Decision.Reason = d.Reason + "; " + ans.Decision.Reason
		}
	}
	if ans.Decision.Behavior != permission.Allow { // an approver that could not decide denies
		ans.Decision.Behavior = permission.Deny
	}
	// What lands is what was previewed and approved, or nothing (tools.Env.ApprovedPreview).
	p.approvedPreview = ans.Decision.Behavior == permission.Allow && pv.ok
	if ans.Decision.Behavior == permission.Allow && ans.Scope.Remembers() {
		if err := t.remember(bg, ans.Scope, in); err != nil {
			t.notice(bg, "warning", "permission", "could not remember the approval: "+err.Error())
		}
	}
	if ans.Scope == "" {
		ans.Scope = permission.ScopeOnce
	}
	_ = t.emit(bg, event.PermissionResolved, event.PermissionResolvedData{
		RequestID: requestID, ToolCallID: p.call.ToolCallID, Decision: string(ans.Decision.Behavior),
		Scope: string(ans.Scope), Reason: ans.Decision.Reason, By: ans.Decision.By,
	})
	return ans.Decision, ans.Scope
}

// remember turns an approval into exact allow rules (never wider than what was
// approved): for this session in the store, and for "always" also in the project's
// .pincer/settings.local.toml.
func (t *turn) remember(ctx context.Context, scope permission.Scope, in permission.Input) error {
	rules := permission.AlwaysRules(t.a.Mode(), t.rules, in)
	if len(rules) == 0 {
		return nil
	}
	t.a.sessionRules.Lock()
	defer t.a.sessionRules.Unlock()
	stored, err := t.a.cfg.Store.GetSessionRules(ctx, t.sess.ID)
	if err != nil {
		return err
	}
	session, _ := permission.ParseSessionRules(stored)
	for _, r := range rules {
		r.Source = permission.SessionSource
		session = session.Add(permission.Allow, r)
		t.rules = t.rules.Add(permission.Allow, r)
		if scope == permission.ScopeAlways {
			if err := permission.SaveLocalRule(t.a.cfg.Workspace.Root(), permission.Allow, r); err != nil {
				return err
			}
		}
		t.notice(ctx, "info", "permission", rememberedText(scope, r))
	}
	return t.a.cfg.Store.PutSessionRules(ctx, t.sess.ID, permission.SessionRuleStrings(session))
}

// rememberedText says which rule an approval of scope kept and where (a new
// user r21 could not tell what "always" had saved, nor where to undo it).
// A rule saved to the workspace's file is read back as that file's: a Bash
// command only it allows runs with its reads confined (docs/SECURITY.md).
func rememberedText(scope permission.Scope, r permission.Rule) string {
	if scope == permission.ScopeAlways {
		return "saved the allow rule " + r.String() + " to .pincer/settings.local.toml (this workspace's file: remove the line there to undo it; a Bash command only a workspace file's rule allows runs with its reads confined to the workspace)"
	}
	return "allowed for the rest of this session: " + r.String()
}

// audit appends the decision to the store's audit trail.
func (t *turn) audit(ctx context.Context, p *prepared, in permission.Input, d permission.Decision, scope permission.Scope) {
	e := permission.NewAuditEntry(t.sess.ID, t.id, p.call.ToolCallID, in, d, time.Now().UTC())
	e.Scope = string(scope)
	if p.tool != nil {
		e.Origin = p.tool.Spec().Origin // an MCP or plugin tool names where it comes from
	}
	if err := t.a.cfg.Store.AppendAudit(ctx, e); err != nil {
		t.notice(ctx, "warning", "permission", "audit trail: "+err.Error())
	}
}

// loadRules returns the agent's rules merged with the session's stored ones.
func (t *turn) loadRules(ctx context.Context) {
	t.rules = t.a.cfg.Rules
	stored, err := t.a.cfg.Store.GetSessionRules(ctx, t.sess.ID)
	if err != nil {
		t.notice(ctx, "warning", "permission", "session rules: "+err.Error())
		return
	}
	session, errs := permission.ParseSessionRules(stored)
	for _, e := range errs {
		t.notice(ctx, "warning", "permission", e.Error())
	}
	t.rules = t.rules.Merge(session)
}

func hookReason(def, reason string) string {
	if reason == "" {
		return def
	}
	return fmt.Sprintf("%s: %s", def, reason)
}

// personsOwn reports whether d allows by the person's own say without asking:
// one of their own rules (personsRule), or the bypassPermissions mode they
// chose — by it the model may read anywhere, so neither a taint nor a
// background shell's confinement would guard anything there.
func (t *turn) personsOwn(d permission.Decision) bool {
	return d.Behavior == permission.Allow && (personsRule(t.rules, d) || t.a.Mode() == permission.ModeBypass)
}
