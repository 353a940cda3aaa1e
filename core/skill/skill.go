// Package skill holds pincer's invocable prompt files, as Claude Code's: skills
// (a directory with SKILL.md and files beside it, in the Agent Skills format)
// and custom slash commands (a Markdown file under a commands/ directory), with
// the built-in skills registered in Go, and the one catalog of everything a
// person can invoke as /NAME (skills, commands, plugin ones, MCP prompts
// through a Source).
//
// Contract:
//
//   - Discovery (Discover) reads the layers built-in -> plugin -> user ->
//     project; the first of a name wins, so a project skill or command never
//     replaces a built-in or a user one (Claude Code: personal beats project),
//     and within a layer a skill beats a command of the same name. What was
//     passed over is kept in Catalog.Problems, with why.
//   - A file that fails to parse contributes nothing (fail closed); its
//     FILE:LINE error is in Catalog.Problems.
//   - Expansion (Expand) is pure substitution plus what a Runner does: the
//     arguments are data — substituted as text into the prompt and, inside a
//     !`command`, quoted for the shell at the place they land — and
//     !`command` and @file are found in the file's own text only, never in
//     the arguments. The Runner runs a command as a Bash tool call and reads a
//     file as a Read tool call (core/agent), so permission rules, hooks, the
//     workspace guard and the sandbox decide, never this package.
//   - The skill index (Catalog.Index) lists name and description of the
//     skills the model may load (not disable-model-invocation ones); the agent
//     writes it into the session's first system prompt, frozen for the
//     session (DESIGN invariant 4).
package skill

import (
	"context"
	"strings"
)

// Origin is where an invocable came from: "builtin", "plugin:NAME", "user",
// "project", or "mcp:SERVER" for an MCP prompt (a Source's).
type Origin string

// The origins of the layers Discover reads.
const (
	OriginBuiltin Origin = "builtin"
	OriginUser    Origin = "user"
	OriginProject Origin = "project"
)

// PluginOrigin is the origin of a plugin's contributions: "plugin:NAME".
func PluginOrigin(name string) Origin { return Origin("plugin:" + name) }

// Plugin reports whether o is a plugin's, and its name.
func (o Origin) Plugin() (string, bool) {
	return strings.CutPrefix(string(o), "plugin:")
}

// Trusted reports whether the origin's files are the user's (built-in, user,
// plugin — installed and enabled by the person), not the repository's.
func (o Origin) Trusted() bool {
	_, plugin := o.Plugin()
	return o == OriginBuiltin || o == OriginUser || plugin
}

// Kind is what an invocable is.
type Kind string

// Kinds of invocables.
const (
	KindSkill     Kind = "skill"      // SKILL.md, or a built-in skill
	KindCommand   Kind = "command"    // commands/**/*.md
	KindMCPPrompt Kind = "mcp-prompt" // an MCP server's prompt (a Source's)
)

// Skill is one skill or custom command, as read from its file (or registered
// by a built-in). The zero values of the optional fields are Claude Code's
// defaults.
type Skill struct {
	// Name is what /NAME invokes, without the slash: "x", "frontend:lint"
	// (commands/frontend/lint.md), "plugin:skill" (a plugin's).
	Name        string
	Description string
	// ArgumentHint is shown after the name in completion ("[file] [focus]").
	ArgumentHint string
	// AllowedTools are permission rules ("Bash(git add:*)", "Read") granted for
	// the turn a person runs it in; never by the model's Skill tool.
	AllowedTools []string
	// Model, when set, is the model the turn runs on ("PROVIDER/MODEL" or an
	// ID of the session's provider).
	Model string
	// DisableModelInvocation keeps it out of the skill index and the Skill
	// tool: only a person's /NAME runs it.
	DisableModelInvocation bool
	// UserInvocable false hides it from /NAME and completion (the model may
	// still load it); Claude Code's `user-invocable: false`.
	UserInvocable bool
	// Arguments are the names of positional arguments (`arguments:` in the
	// frontmatter): $name is the Nth argument.
	Arguments []string
	// Body is the template: the file's text after the frontmatter.
	Body string
	// Dir is the skill's base directory (SKILL.md's directory; "" for a
	// command or a built-in without files), File the file it was read from.
	Dir, File string
	Origin    Origin
	Kind      Kind
	// Learned, for a skill learned from a session (core/skill/learn, written
	// after a person approved it), is where it came from: its frontmatter's
	// `source:` session and turn. nil for any other.
	Learned *Learned
	// Gather, for a built-in, gathers the context the template needs at
	// expansion time (a diff, a log...); its text replaces $CONTEXT in Body,
	// or follows the body when Body has none. An error stops the expansion
	// and is returned as it is: it names the command ("/commit: ...").
	Gather func(ctx context.Context, env GatherEnv) (string, error)
}

// GatherEnv is what a built-in's Gather gets.
type GatherEnv struct {
	// Root is the workspace root (the repository the person works in).
	Root string
	// Args is the text after /NAME, ArgList its words (shell-like quoting:
	// "a b" is one word).
	Args    string
	ArgList []string
	// Home is the user's home directory.
	Home string
	// Getenv reads pincer's environment (nil: none).
	Getenv func(string) string
}

// Entry is one row of the catalog: what completion and /help show.
type Entry struct {
	Name         string // without the slash
	Description  string
	ArgumentHint string
	Origin       Origin
	Kind         Kind
	// Learned is the skill's Learned (nil: not a learned skill), for /skills
	// to mark.
	Learned *Learned
}

// Entry returns the skill's catalog row.
func (s Skill) Entry() Entry {
	return Entry{Name: s.Name, Description: s.Description, ArgumentHint: s.ArgumentHint, Origin: s.Origin, Kind: s.Kind, Learned: s.Learned}
}
