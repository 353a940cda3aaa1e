// Package permission decides whether a tool call may run: Claude Code's permission
// modes and rule syntax, over pincer's configuration files. Decisions are
// functions of the mode, the rules and the call (Evaluate), table-tested. The rule
// files are read by core/config (each parsed once, with positions); RulesFrom
// turns its tables into a RuleSet. Writing "always" answers (SaveLocalRule,
// through config.Edit) is the one side effect, and
// the one look at the file system is resolving symlinks in the paths a call
// names (resolveExisting: a path through a symlink is decided where it leads).
//
// The contract, in evaluation order (Evaluate):
//
//  1. A Bash command on the hard deny list (shell.HardDeny) is denied in every
//     mode, bypassPermissions included.
//  2. Deny rules, then ask rules, then allow rules; the first match wins, so a deny
//     rule from any source beats an allow rule from any other, and an ask rule
//     beats an allow rule (Claude Code: "deny, then ask, then allow"). Deny and
//     ask rules match a command through wrappers, program paths and git's global
//     options (`sudo /bin/rm`, `git -C . push`); a command whose program they
//     cannot name (non-literal, or read from standard input) matches every Bash
//     deny and ask rule, and so does one that holds code bash evaluates from
//     text (`printf -v 'a[$(cmd)]' x`), defines code run later (mapfile -C,
//     alias, complete -C, bind -x, enable -f, PROMPT_COMMAND=, BASH_ENV=,
//     source of a non-literal file) or gives an editor shell commands (`vim -c
//     '!cmd'`, `less +!cmd`); see bash_code.go. Allow rules match only commands whose words are all
//     literal (a bare `Bash` rule aside).
//  3. A write to a protected path (Protected: git's executable configuration,
//     .pincer/, .claude/, .mcp.json, .envrc, .vscode/, .idea/, the instruction
//     files), by a file tool, a redirect, a path argument of a command that is not
//     read-only or git's own configuration commands, and an edit of a file with
//     more than one hard link (Input.Linked), ask in every mode — bypassPermissions
//     included, no allow rule helps; dontAsk and plan deny them.
//  4. Unmatched calls get the mode's default (see Mode). Built-in read-only shell
//     commands whose words are literal and whose path arguments resolve inside
//     the workspace, and reads inside the workspace, never need approval; reads
//     outside it (or of credentials, secretPath) ask, for Read and for read-only
//     commands alike.
//
// A compound shell command is allowed only when every simple command in it is
// (Claude Code: `Bash(safe-cmd:*)` does not allow `safe-cmd && other-cmd`).
// "Always" approvals save exact rules only (AlwaysOffer). Approval is not the last
// line: the workspace path guard and the OS sandbox in sandbox/ hold whatever is
// decided here.
package permission

import (
	"fmt"
	"slices"
	"strings"
)

// Mode is a permission mode, with Claude Code's names.
type Mode string

// The permission modes.
const (
	// ModeDefault: reads inside the workspace are free (read-only commands
	// included); edits, other commands and reads outside it ask.
	ModeDefault Mode = "default"
	// ModeAcceptEdits: edits inside the workspace are free, and so are the file
	// commands mkdir, touch, mv, cp, rm and rmdir on workspace paths; other commands ask.
	ModeAcceptEdits Mode = "acceptEdits"
	// ModePlan: read-only. Edits and commands outside the read-only set are denied
	// (even when a rule allows them); tools that write are hidden (HiddenInPlan).
	// Reads outside the workspace ask, as in default mode.
	ModePlan Mode = "plan"
	// ModeBypass: no prompts from the mode; deny rules, ask rules and the hard
	// deny list still apply (so do the sandbox's limits), and so do the asks of
	// every mode: protected paths, linked files. It also asks for forced
	// deletes (rm -f, rm -rf) outside the workspace or of paths it cannot
	// resolve, and for writes whose target it cannot resolve (they might be
	// protected paths).
	ModeBypass Mode = "bypassPermissions"
	// ModeDontAsk: anything that would ask is denied instead (for headless runs):
	// only what a rule allows, plus reads and read-only commands, runs.
	ModeDontAsk Mode = "dontAsk"
	// ModeAuto: default mode, except that a shell command no rule decided
	// (an ask of the mode itself) goes to the stage-two classifier
	// ([permissions.classifier]), whose allow runs it (WithVerdict); without
	// a classifier it is default mode. It never loosens a deny rule, an ask
	// rule, a protected path or the hard deny list.
	ModeAuto Mode = "auto"
)

// Modes lists every mode, for help texts and validation.
var Modes = []Mode{ModeDefault, ModeAcceptEdits, ModePlan, ModeBypass, ModeDontAsk, ModeAuto}

// ParseMode validates s; the empty string is ModeDefault.
func ParseMode(s string) (Mode, error) {
	if s == "" {
		return ModeDefault, nil
	}
	for _, m := range Modes {
		if string(m) == s {
			return m, nil
		}
	}
	names := make([]string, len(Modes))
	for i, m := range Modes {
		names[i] = string(m)
	}
	return "", fmt.Errorf("unknown permission mode %q (want one of %s)", s, strings.Join(names, ", "))
}

// Behavior is the outcome of a decision.
type Behavior string

// Decision outcomes.
const (
	Allow Behavior = "allow"
	Deny  Behavior = "deny"
	Ask   Behavior = "ask"
)

// Tool kinds, as tools.Kind spells them. An unknown kind is treated as
// KindExecute, except that HiddenInPlan hides it.
const (
	KindRead    = "read"    // reads files or searches
	KindEdit    = "edit"    // changes files
	KindExecute = "execute" // runs commands
	KindFetch   = "fetch"   // reads the network (WebFetch)
)

// Input is a tool call to decide on. Command is set for Bash; Paths (absolute,
// cleaned, symlinks resolved by the caller; Evaluate resolves them again for the
// protected-path check) for file tools; URL for WebFetch.
// Workspace is the workspace root, Cwd the directory a command runs in (default:
// Workspace), Home the user's home directory (for `~/` rules).
type Input struct {
	Tool      string
	Kind      string
	Summary   string
	Command   string
	URL       string
	Paths     []string
	Workspace string
	Cwd       string
	Home      string
	// AddedDirs are further directories treated as part of the workspace.
	AddedDirs []string
	// Linked lists the paths among Paths that are regular files with more than one hard link.
	Linked []string
	// Instructions are the absolute paths of the files that make up the project's
	// instructions beyond the fixed names of ProtectedPaths: the files an
	// AGENTS.md or CLAUDE.md imports with @path (prompt.LoadInstructions). A
	// write to one asks in every mode, as for a protected path: the next session
	// gives its text to the model.
	Instructions []string
	// TrustedCode are the workspace paths that trusted code runs outside the
	// sandbox (TrustedCode: core.hooksPath's directory, the scripts of the
	// person's hooks and MCP servers). A write to one asks in every mode.
	TrustedCode []TrustedCode
	// AgentType is the subagent type of an Agent call ("Explore"), which an
	// Agent(TYPE) or Task(TYPE) rule matches, case-insensitively, as Claude
	// Code's; "" for other tools.
	AgentType string

	resolve func(string) string // resolveExisting, memoised per evaluation (set by normalize)
}

// Request is the input of Decide, the mode-only policy kept for existing callers.
type Request struct {
	Tool      string
	Kind      string
	Summary   string
	Paths     []string
	Workspace string
	AddedDirs []string
}

// ByReadOnly is the By of a Bash command allowed because every part of it
// only reads (the read-only set), on the paths it names.
const ByReadOnly = "read-only"

// ByPaths reports whether d allows a call because of the paths it named
// being inside the workspace — the read-only set or a mode's default
// (acceptEdits' file commands, plan's and default's reads) — rather than by
// a rule, a hook, the classifier or bypassPermissions. Such a decision holds
// for the paths as they were when it was made and as far as the literal
// words show them; the reads of the call can be held to it by the kernel
// (tools.Env.ConfineReads).
func (d Decision) ByPaths() bool {
	return d.Behavior == Allow && d.Rule == "" && (d.By == ByReadOnly ||
		strings.HasPrefix(d.By, "mode:") && d.By != byMode(ModeBypass))
}

// Decision is what Evaluate returned and why. By names the deciding authority:
// "rule Bash(npm test:*) from .pincer/config.toml", "mode:acceptEdits",
// "hard-deny" or "read-only". Rule is the matching rule in canonical form ("" when
// no rule decided). Reason is a sentence for the model and the user.
type Decision struct {
	Behavior Behavior
	Reason   string
	By       string
	Rule     string
	// ProjectOnly says an allowed Bash command is allowed only by a rule read
	// from a workspace file (Rule.Project): the person's own rules and the
	// mode would not allow it (see projectOnly). Its reads must then be
	// confined to the workspace (sandbox.Policy.ConfineReads), since what it
	// runs may read where its words do not show.
	ProjectOnly bool
}

// Decide applies mode to req with no rules: Evaluate with an empty RuleSet.
func Decide(mode Mode, req Request) Decision {
	return Evaluate(mode, RuleSet{}, Input{Tool: req.Tool, Kind: req.Kind, Summary: req.Summary,
		Paths: req.Paths, Workspace: req.Workspace, AddedDirs: req.AddedDirs})
}

// HeadlessDenial turns an Ask into the Deny a run without a person gets, with a
// reason naming the flag that would allow the call.
func HeadlessDenial(mode Mode, req Input) Decision {
	if d := Evaluate(mode, RuleSet{}, req); d.By == "protected" || d.By == "bypass-guard" {
		return Decision{Behavior: Deny, By: "headless", Reason: strings.TrimSuffix(d.Reason, "; dontAsk mode denies what no rule allows") +
			"; no flag or mode allows it without a person: make this change yourself, outside pincer"}
	}
	for _, p := range req.Paths {
		if req.Workspace != "" && !allInside([]string{p}, req.roots()...) {
			return Decision{Behavior: Deny, By: "headless", Reason: fmt.Sprintf(
				"%s was denied: %s is outside the workspace %s, and pincer's file tools never reach outside it in any mode; work inside the workspace",
				req.Tool, p, req.Workspace)}
		}
	}
	allow, ok := allowFlag(mode, req)
	if !ok {
		return Decision{Behavior: Deny, By: "headless", Reason: fmt.Sprintf(
			"%s was denied: it needs approval and this run has no one to ask; no --allowed-tools rule can allow every part of this command (a part expands words no rule matches, as a loop's or a variable's): rerun with %s, or run it in the workbench to approve it",
			req.Tool, modeFlag(mode, req))}
	}
	return Decision{
		Behavior: Deny,
		Reason: fmt.Sprintf("%s was denied: it needs approval and this run has no one to ask; rerun with %s, or allow it with %s",
			req.Tool, modeFlag(mode, req), allow),
		By: "headless",
	}
}

// modeFlag is the --permission-mode value that would allow req: acceptEdits
// for an edit, and for a Bash command acceptEdits allows (one whose only
// approval is writing workspace files: `echo hi > out.txt`, `mkdir build`),
// else bypassPermissions.
func modeFlag(mode Mode, req Input) string {
	if mode != ModeAcceptEdits && mode != ModeBypass &&
		(req.Kind == KindEdit || req.Tool == "Bash" && Evaluate(ModeAcceptEdits, RuleSet{}, req).Behavior == Allow) {
		return "--permission-mode acceptEdits (or bypassPermissions)"
	}
	return "--permission-mode bypassPermissions"
}

// allowFlag is the --allowed-tools value that would allow req next time: the
// exact rules an "always allow" answer saves (AlwaysRules, so the workbench's
// answer and the headless hint name the same rules), shell-quoted —
// `--allowed-tools mcp__ev__echo`, `--allowed-tools 'Bash(npm test)'`, saying
// what an Edit rule in a Bash command's is for; ok is false when no rule can
// be named or the rules named would not allow req (checked by evaluating it
// with them): no rule can.
func allowFlag(mode Mode, req Input) (string, bool) {
	rules := AlwaysRules(mode, RuleSet{}, req)
	if len(rules) == 0 {
		// Nothing literal to name (`for f in *; do echo $f; done`, `x=1;
		// echo $x`): a bare "--allowed-tools" told the person nothing (new
		// user r22).
		return "", false
	}
	parts := make([]string, len(rules))
	files := false
	var with RuleSet
	for i, r := range rules {
		parts[i] = r.String()
		files = files || r.Tool != req.Tool
		with = with.Add(Allow, r)
	}
	if Evaluate(mode, with, req).Behavior != Allow {
		// A part no literal rule can match (a word a loop or a variable
		// expands: `echo tick $i`): the rules named would not be enough
		// (a new user r21 reran with them and got the same denial).
		return "", false
	}
	flag := "--allowed-tools " + shellWord(strings.Join(parts, " "))
	if req.Tool == "Bash" && files {
		// pincer asks for a file a command writes (a redirect, cp's
		// target) by its Edit rules: a Bash rule alone would not allow it.
		flag += " (an Edit rule allows the file the command writes, which no Bash rule does)"
	}
	return flag, true
}

// shellWord is s as one POSIX shell word: as is when it needs no quoting,
// else in single quotes.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,:/@=+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// byMode is the By of a decision the mode made.
func byMode(m Mode) string { return "mode:" + string(m) }

// byRule is the By of a decision rule r made.
func byRule(r Rule) string {
	if r.Source == "" {
		return "rule " + r.String()
	}
	return "rule " + r.String() + " from " + r.Source
}

// ruleDecision is the decision of rule r with behavior b: reason, or the
// rule's own Reason when pincer made it.
func ruleDecision(b Behavior, r Rule, reason string) Decision {
	if r.Reason != "" {
		reason = r.Reason
	}
	return Decision{Behavior: b, Reason: reason, By: byRule(r), Rule: r.String()}
}

// inside reports whether path is root or below it.
func inside(path, root string) bool {
	if root == "" || path == "" {
		return false
	}
	root = strings.TrimSuffix(root, "/")
	return path == root || strings.HasPrefix(path, root+"/")
}

// allInside reports whether every path is inside one of roots. No paths counts as inside
// (the tool touches no file).
func allInside(paths []string, roots ...string) bool {
	for _, p := range paths {
		if !slices.ContainsFunc(roots, func(r string) bool { return inside(p, r) }) {
			return false
		}
	}
	return true
}

// roots are the directories that count as the workspace: its root and the added
// directories (--add-dir), as Claude Code's additional working directories.
func (in Input) roots() []string {
	return append([]string{in.Workspace}, in.AddedDirs...)
}
