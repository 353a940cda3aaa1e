// Package tools is the model's hands: one file per tool (Read, Write, Edit, Bash,
// Grep, Glob — Claude Code's names and parameters), each with an embedded
// description and the JSON Schema of its input, plus the Registry that holds them.
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
)

// Tool is one tool the model can call.
type Tool interface {
	// Name is the name the model calls it by ("Read").
	Name() string
	// Description is the text the model reads about the tool.
	Description() string
	// Schema is the JSON Schema (draft 2020-12) of the input object.
	Schema() json.RawMessage
	// Kind says whether the tool reads, edits or executes.
	Kind() Kind
	// ConcurrencySafe reports whether calls may run in parallel with other
	// concurrency-safe read calls of the same response.
	ConcurrencySafe() bool
	// Summary is a one-line human description of a call with this (valid) input, as
	// shown in a timeline: `Read src/main.go`, `Bash: go test ./...`.
	Summary(input json.RawMessage) string
	// Paths returns the absolute paths a call with this input would touch (for the
	// permission policy); nil when the tool has none (Bash).
	Paths(env *Env, input json.RawMessage) []string
	// Run performs the call. A returned error becomes the tool result
	// "Tool failed: <error>"; ctx ends on cancellation or timeout.
	Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error)
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

// Result is what a successful call produced. Output is the text the model reads
// (ForModel); Diff is a unified diff when files changed; IsError marks a result that
// the tool ran but that reports a failure (a non-zero exit code, say).
type Result struct {
	Output  string
	IsError bool
	Diff    string
}

// Env is what a call can use: the workspace guard and the session's file state.
type Env struct {
	Workspace *sandbox.Workspace
	Files     *FileState
	SessionID string
	// ToolCallID identifies the call being run.
	ToolCallID string
	// SpillDir, when set, is where a tool saves an output too long to show inline
	// (see Spill); the directory must be readable through Workspace.
	SpillDir string
	// Sandbox is the policy Bash runs commands under (sandbox.Executor); nil
	// means the environment allowlist and a process group of their own only,
	// without rlimits or the OS sandbox.
	Sandbox *sandbox.Policy
	// ReadDenied reports whether a Read deny rule denies reading the file at
	// the absolute path abs; Grep and Glob drop such files from their results
	// (lines and names), as Claude Code applies Read rules, best effort, to
	// every tool that reads. nil means nothing is denied.
	ReadDenied func(abs string) bool
}

// readDenied reports whether env's ReadDenied denies abs.
func (env *Env) readDenied(abs string) bool {
	return env != nil && env.ReadDenied != nil && env.ReadDenied(abs)
}
