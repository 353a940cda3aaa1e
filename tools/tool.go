// Package tools is the model's hands: one file per tool (Read, Write, Edit, Bash,
// Grep, Glob — Claude Code's names and parameters), each with an embedded
// description, a typed input struct and the JSON Schema of that input beside it
// (a test holds the two to the same fields), plus the Registry that holds them.
// The agent sees a tool through the small Tool interface and its optional
// capabilities (Summarizer, PathLister, Previewer); Typed adapts a tool written
// against its input struct, decoding the JSON input once per call. A tool that
// changes files previews the call — the would-be diff, by the same code that
// then runs it, writing nothing.
//
// Tools do not know about permissions, hooks or the agent loop (those wrap them in
// core/agent). Every path a tool touches goes through the sandbox.Workspace guard
// — Resolve for the check and the message, then the Workspace's os.Root-based
// operations (Open, ReadFile, ReadDir, WriteFileAtomic, ...) for the use, so a
// path changed between the two is never followed out (fileio.go). The one way
// out is a read the permission layer approved for that very call
// (FileState.GrantOutside). Every failure is returned as an error whose text
// the model can read.
package tools

import (
	"context"
	"encoding/json"

	"pincer/sandbox"
)

// Kind is what a tool does to the world, which the permission policy decides on.
type Kind string

// Tool kinds.
const (
	KindRead    Kind = "read"    // reads files or searches; no side effects
	KindEdit    Kind = "edit"    // changes files inside the workspace
	KindExecute Kind = "execute" // runs commands
	KindFetch   Kind = "fetch"   // reads the network (WebFetch, WebSearch)
)

// Tool is one tool the model can call: what the agent offers the model (Spec)
// and how a call runs (Run). Everything else a tool may offer is an optional
// capability of its own small interface — Summarizer, PathLister, Previewer —
// that the agent looks for (Summary, Paths, and a type assertion for
// Previewer). Built-in tools are written against their typed input and wrapped
// by Typed, which decodes the input once per call; a tool whose input has no Go
// type (one whose schema comes from elsewhere) implements Tool directly.
type Tool interface {
	// Spec describes the tool: its name, description, input schema, kind.
	Spec() Spec
	// Run performs the call with input (a JSON object the agent has checked
	// against Spec().Schema). A returned error becomes the tool result
	// "Tool failed: <error>"; ctx ends on cancellation or timeout.
	Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error)
}

// Spec is what the agent knows of a tool before any call: what the model is
// offered, and what the permission policy and the scheduler decide on.
type Spec struct {
	// Name is the name the model calls it by ("Read").
	Name string
	// Description is the text the model reads about the tool.
	Description string
	// Schema is the JSON Schema (draft 2020-12) of the input object.
	Schema json.RawMessage
	// Kind says whether the tool reads, edits or executes. The empty Kind is
	// decided on as KindExecute (core/permission treats an unknown kind so).
	Kind Kind
	// ConcurrencySafe reports whether calls may run in parallel with other
	// concurrency-safe read calls of the same response; false runs them in order.
	ConcurrencySafe bool
	// Defer says when the tool's full definition is left out of the model's
	// requests and announced by name only, to be loaded with ToolSearch (as
	// Claude Code's deferred tools): DeferNever (the zero value), DeferAuto, DeferAlways.
	Defer Deferral
	// Origin names where a tool that is not built in comes from, for the
	// audit trail and the views: "mcp:SERVER", "plugin:NAME"; "" for a built-in.
	Origin string
	// Repeatable says the same call may return something new with nothing
	// called in between (BashOutput reads a background shell's output as it
	// arrives), so the agent does not reject a repeat of it as a duplicate.
	Repeatable bool
	// AskAlways makes every call of the tool wait for a person's answer, in
	// every mode: no rule, mode or hook allows it (a deny still denies;
	// headless, dontAsk and plan deny it). ConfigEdit has it.
	AskAlways bool
}

// Deferral is when a tool's definition is deferred (see Spec.Defer).
type Deferral string

// Deferrals.
const (
	// DeferNever: the definition is in every request.
	DeferNever Deferral = ""
	// DeferAuto: deferred once the definitions of all DeferAuto tools pass a share
	// of the context window (MCP tools; Claude Code's "auto", 10%).
	DeferAuto Deferral = "auto"
	// DeferAlways: always deferred until loaded (low-use built-ins).
	DeferAlways Deferral = "always"
)

// Summarizer is a tool that can describe a call in one line.
type Summarizer interface {
	// Summary is a one-line human description of a call with this (valid)
	// input, as shown in a timeline: `Read src/main.go`, `Bash: go test ./...`.
	Summary(input json.RawMessage) string
}

// PathLister is a tool that knows in advance which files a call touches.
type PathLister interface {
	// Paths returns the absolute paths a call with this input would touch (for
	// the permission policy), symlinks resolved; nil when it touches none.
	Paths(env *Env, input json.RawMessage) []string
}

// Previewer is a tool that changes files and can say, before a call runs, what
// it would change: Preview returns the unified diff the call with this input
// would make now (Result.Diff of the same call run at once), computed with the
// tool's own matching and workspace path guard and writing nothing. Its error is
// the error Run would return (the text the model would read); a diff of "" means
// the call would change nothing.
type Previewer interface {
	Preview(env *Env, input json.RawMessage) (diff string, err error)
}

// Summary is t's one-line description of a call with input (Summarizer), or
// the tool's name when it has none.
func Summary(t Tool, input json.RawMessage) string {
	if s, ok := t.(Summarizer); ok {
		return s.Summary(input)
	}
	return t.Spec().Name
}

// Paths is the list of absolute paths a call of t with input would touch
// (PathLister), or nil when the tool does not say (Bash, TodoWrite).
func Paths(t Tool, env *Env, input json.RawMessage) []string {
	if p, ok := t.(PathLister); ok {
		return p.Paths(env, input)
	}
	return nil
}

// Result is what a successful call produced. Output is the text the model reads
// (ForModel); Diff is a unified diff when files changed; IsError marks a result that
// the tool ran but that reports a failure (a non-zero exit code, say).
type Result struct {
	Output  string
	IsError bool
	Diff    string
	// OutputLines is the line count of the whole output when Output is a cut
	// of it (Bash: spilled to a file or cut in the middle), so a view can say
	// how many lines there were; 0 when Output is the whole output.
	OutputLines int
}

// Env is what a call can use: the workspace guard and the session's file state.
type Env struct {
	Workspace *sandbox.Workspace
	Files     *FileState
	SessionID string
	// TurnID is the turn the call belongs to ("" outside a turn).
	TurnID string
	// ToolCallID identifies the call being run.
	ToolCallID string
	// SpillDir, when set, is where a tool saves an output too long to show inline
	// (see Spill); the directory must be readable through Workspace.
	SpillDir string
	// Sandbox is the policy Bash runs commands under (sandbox.Executor); nil
	// means the environment allowlist and a process group of their own only,
	// without rlimits or the OS sandbox.
	Sandbox *sandbox.Policy
	// Shells is the session's set of background shells (Bash with
	// run_in_background, BashOutput, KillShell); nil means background shells
	// are not available to the call.
	Shells *Shells
	// ReadDenied reports whether a Read deny rule denies reading the file at
	// the absolute path abs; Grep and Glob drop such files from their results
	// (lines and names), as Claude Code applies Read rules, best effort, to
	// every tool that reads. nil means nothing is denied.
	ReadDenied func(abs string) bool
	// ApprovedPreview says a person approved this call after seeing its Preview:
	// a file tool then writes only while its change is exactly the one previewed
	// (the same file, the same bytes before and after: a fingerprint FileState kept
	// for the tool call), and otherwise fails with ErrChangedSinceApproval,
	// writing nothing — what was approved lands, or nothing does.
	ApprovedPreview bool
	// ConfineReads says only a repository's rule allowed this call
	// (permission.Decision.ProjectOnly): Bash runs its command with reads
	// confined to the workspace (sandbox.Policy.ConfineReads), fails without
	// a sandbox, and says so in its result (ConfinedReadsNote).
	ConfineReads bool
	// ConfineTainted says ConfineReads is set not because of this call's own
	// rule but because a command only a repository's rule allowed ran
	// earlier in the workspace (sandbox.Workspace.ReadsTainted) and the
	// person did not allow this call themselves: its result ends with
	// TaintedReadsNote instead of ConfinedReadsNote.
	ConfineTainted bool
	// Unvouched says the person did not allow this call themselves (neither
	// their approval nor their own rule, nor bypassPermissions): the read-only
	// set, a mode, a hook or the classifier allowed it on the paths it named,
	// which a later command may re-aim (a link moved or swapped, a gitfile
	// planted). Where ConfineReads is not set, Bash then runs a background
	// shell with its reads confined when the sandbox can confine them
	// (BackgroundReadsNote; red team r20 F2), and holds whatever it runs
	// unconfined in sandbox.Workspace.HoldUnconfined, so that a taint of the
	// workspace while it runs ends it (red team r20 F1).
	Unvouched bool
	// ConfineQuiet says ConfineReads is set for the call's own decision,
	// which rested on the paths it named (permission.Decision.ByPaths):
	// its result says so (PathsReadsNote) only when its output shows a read
	// refused ("Permission denied"), the one thing the confinement changes
	// for such a call.
	ConfineQuiet bool
	// ContextWindow is the model's context window in tokens (0: unknown): Read
	// keeps its result to a share of it (ReadResultCap).
	ContextWindow int64
	// Deferred are the session's deferred tools at this model call (loaded or
	// not; registered, offered in the permission mode in force): what
	// ToolSearch searches. nil when nothing is deferred.
	Deferred []Spec
}

// readDenied reports whether env's ReadDenied denies abs.
func (env *Env) readDenied(abs string) bool {
	return env != nil && env.ReadDenied != nil && env.ReadDenied(abs)
}
