// Package subagent holds agent definitions as Claude Code writes them: the
// built-in types (general-purpose, Explore, Plan), Markdown files with YAML
// frontmatter in a project's .claude/agents, the user's ~/.claude/agents and
// pincer's config dir agents/, and enabled plugins' agents dirs; the catalog
// the Agent tool looks a subagent_type up in; the listing the model chooses
// from; and the pure rules a definition is applied by (the tool set, the
// permission mode, the model), which only ever tighten what the parent has.
//
// A definition is data: the project's files are the adversary's, so a file is
// read through core/smallfile (inside its layer's place, plain regular, size
// capped), parsed by core/frontmatter, and one that does not parse is not
// loaded (a Problem naming FILE:LINE).
package subagent
