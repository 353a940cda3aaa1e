package subagent

import "pincer/core/permission"

// Origin says where a definition comes from: "built-in", "project", "user" or
// "plugin:NAME" (as core/skill's origins and tools.Spec.Origin spell plugins).
type Origin string

// The origins of a definition.
const (
	OriginBuiltin Origin = "built-in"
	OriginProject Origin = "project"
	OriginUser    Origin = "user"
)

// PluginOrigin is the origin of plugin name's definitions: "plugin:NAME".
func PluginOrigin(name string) Origin { return Origin("plugin:" + name) }

// IsolationWorktree is the one isolation a definition may ask for: the
// subagent works in a new git worktree on a new branch (core/worktree).
const IsolationWorktree = "worktree"

// Definition is one agent type the Agent tool can start (its subagent_type),
// with Claude Code's frontmatter fields. Zero fields inherit from the parent.
type Definition struct {
	// Name is the subagent_type: "Explore", "code-reviewer", "PLUGIN:name".
	Name string
	// Description tells the parent's model when to use it (the listing).
	Description string
	// Tools are the tool names the subagent may have (nil: all of the
	// parent's but the nesting ones); names as Claude Code writes them:
	// "Bash", "mcp__server__tool", a whole server "mcp__server".
	Tools []string
	// DisallowedTools are removed from Tools (or from the parent's).
	DisallowedTools []string
	// Model is "" (inherit: the frontmatter's "inherit" too), a Claude alias
	// ("sonnet", "opus", "haiku") or a model ID; ResolveModel decides.
	Model string
	// PermissionMode is the mode the definition asks for ("" inherits);
	// EffectiveMode applies it only when it is stricter than the parent's.
	PermissionMode permission.Mode
	// MaxTurns caps the subagent's model calls (0: the default budget).
	MaxTurns int
	// Isolation is "" or IsolationWorktree.
	Isolation string
	// Prompt is the file's body: the subagent's system prompt.
	Prompt string
	// Origin and Path say where it was read from (Path "" for a built-in).
	Origin Origin
	Path   string
}

// ReadOnly reports whether a subagent of d can change nothing: its mode is
// plan (edits and commands outside the read-only set denied, whatever a rule
// says), which EffectiveMode always applies, being the strictest. Explore and
// Plan are; the Agent tool may run such calls of one response in parallel.
func (d Definition) ReadOnly() bool { return d.PermissionMode == permission.ModePlan }
