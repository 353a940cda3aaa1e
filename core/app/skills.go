package app

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"

	"pincer/core/agent"
	"pincer/core/config"
	"pincer/core/permission"
	"pincer/core/prompt"
	"pincer/core/provider/catalog"
	"pincer/core/skill"
	"pincer/core/skill/builtin"
	"pincer/tools"
)

// SegSkills names the skill index segment of the system prompt.
const SegSkills = "skills"

// Command is one row of what a person can invoke as /NAME beyond the
// workbench's own table: a built-in skill, a skill, a custom command, a
// plugin's, an MCP prompt — what completion and /help list.
type Command struct {
	Name         string // with the slash: "/commit", "/frontend:lint"
	Description  string
	ArgumentHint string
	Origin       string // "builtin", "user", "project", "plugin:NAME", "mcp:SERVER"
	Kind         string // "skill", "command", "mcp-prompt"
	// Source, for a learned skill (its SKILL.md's source:), is where it was
	// learned: "session ID, turn N"; "" for any other.
	Source string
}

// builtinSkills adapts core/skill/builtin's skills to the catalog: each
// gathers its context and fills its template in Gather, so its Body is just
// the gathered text. They are a person's commands (as Claude Code's built-in
// /review, /init): not in the index, not loadable by the Skill tool.
func builtinSkills() []skill.Skill {
	var out []skill.Skill
	for _, b := range builtin.All() {
		out = append(out, skill.Skill{Name: b.Name, Description: b.Description, ArgumentHint: b.ArgumentHint,
			Origin: skill.OriginBuiltin, Kind: skill.KindSkill, UserInvocable: true, DisableModelInvocation: true, Body: "$CONTEXT",
			Gather: func(ctx context.Context, env skill.GatherEnv) (string, error) {
				return b.Expand(ctx, builtin.Env{Dir: env.Root, Args: strings.TrimSpace(env.Args), Paths: config.PathsFrom(env.Getenv)})
			}})
	}
	return out
}

// loadSkills discovers the session's skills and commands (built-in, plugin,
// user, project: skill.Discover) into Setup.Skills, says what it passed over
// as warnings, registers the Skill tool when the model may load any and lets
// Read reach the trusted skills' files (skillReadRules). It runs after the
// configuration is read (the plugins are its layer); a configuration that
// failed closed denies the Skill tool as every other.
func (s *Setup) loadSkills() {
	paths := config.PathsFrom(os.Getenv)
	d := skill.DirsFor(s.Workspace.Root(), paths.Home, paths.Config)
	d.Builtin = builtinSkills()
	d.Plugins = s.SkillPlugins()
	s.Skills = skill.Discover(d)
	for _, p := range s.Skills.Problems {
		s.Warnings = append(s.Warnings, p.Error())
	}
	if len(s.Skills.ForModel()) > 0 {
		cat, root, home := s.Skills, s.Workspace.Root(), paths.Home
		s.Tools.Add(tools.Typed(tools.Skill{Load: func(ctx context.Context, name, args string) (string, error) {
			return loadForModel(ctx, cat, name, args, root, home)
		}}))
	}
	s.Rules = s.Rules.Add(permission.Allow, s.skillReadRules()...)
	if len(s.ConfigErrors) > 0 {
		s.Rules = denyAll(s.Rules, s.Tools, s.ConfigErrors)
	}
}

// RescanSkills discovers the skills and commands again (skill.Catalog.Rescan)
// for the next session: a command file added since start is a /NAME of the
// session /clear or a new tab makes, and its skill is in that session's
// index. What it passes over that was not said before (at start, as a
// warning, or by an earlier rescan) is returned as warnings, one line each:
// a project command added since and shadowed by a built-in (/review) is said
// once, not dropped. The Skill tool is registered at start only: when no
// skill was there then, one added later is listed for the person (/NAME) but
// not loadable by the model until a restart; Read reaches only the skill dirs
// known at start (skillReadRules).
func (s *Setup) RescanSkills() []string {
	problems := s.Skills.Rescan()
	s.rescan.mu.Lock()
	defer s.rescan.mu.Unlock()
	if s.rescan.said == nil {
		s.rescan.said = map[string]bool{}
		for _, p := range s.Skills.Problems { // said at start (loadSkills)
			s.rescan.said[p.Error()] = true
		}
	}
	var warns []string
	for _, p := range problems {
		if msg := p.Error(); !s.rescan.said[msg] {
			s.rescan.said[msg] = true
			warns = append(warns, msg)
		}
	}
	return warns
}

// rescanSaid is the set of problems RescanSkills has said.
type rescanSaid struct {
	mu   sync.Mutex
	said map[string]bool
}

// loadForModel is the Skill tool's answer: a skill the model may load,
// expanded for it (skill.ForModel: nothing runs, nothing is granted).
func loadForModel(ctx context.Context, cat *skill.Catalog, name, args, root, home string) (string, error) {
	sk, ok := cat.Lookup(name)
	if !ok || sk.Kind != skill.KindSkill {
		return "", fmt.Errorf("no skill named %q: the system prompt lists the skills there are", name)
	}
	if sk.DisableModelInvocation {
		return "", fmt.Errorf("the skill %q can only be run by the person (/%s)", name, name)
	}
	return skill.ForModel(ctx, sk, args, skill.GatherEnv{Root: root, Home: home, Getenv: os.Getenv})
}

// skillReadRules are allow rules letting Read (only) reach the files beside
// the trusted skills the model may load, outside the workspace too
// (skill.Catalog.SkillDirs: built-in, plugin and user skills). Deny rules, the
// hidden paths (credentials, pincer's data) and the fail-closed deny-all still
// win over them.
func (s *Setup) skillReadRules() []permission.Rule {
	var out []permission.Rule
	for _, dir := range s.Skills.SkillDirs() {
		out = append(out, permission.Rule{Tool: "Read", Specifier: "/" + globEscape(dir) + "/**", Source: "skill " + dir})
	}
	return out
}

// globEscape escapes the glob characters of a path for a rule pattern.
func globEscape(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`*?[]{}\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// skillSegments is the skill index as a static system-prompt segment (frozen
// with the rest of the session's first system message: DESIGN invariant 4).
func (s *Setup) skillSegments() []prompt.Segment {
	idx := s.Skills.Index()
	if idx == "" {
		return nil
	}
	return []prompt.Segment{{Name: SegSkills, Static: true, Text: "# Skills\n\n" +
		"Skills are instructions for particular tasks. When a request matches a skill's description, load it with the Skill tool " +
		"before doing the work, and follow what it returns. The skills available:\n\n" + idx}}
}

// Commands lists what /NAME can invoke besides the workbench's own table:
// the catalog's entries (skills, commands, plugin ones, MCP prompts).
func (s *Setup) Commands() []Command {
	var out []Command
	for _, e := range s.Skills.Entries() {
		out = append(out, Command{Name: "/" + e.Name, Description: e.Description, ArgumentHint: e.ArgumentHint,
			Origin: string(e.Origin), Kind: string(e.Kind), Source: e.Learned.String()})
	}
	return out
}

// Invocation makes a line "/NAME args" that names a skill, a command or a
// Source's entry into a turn's input (ok false: not one of them, the line is
// what it was). The expansion runs inside the turn (agent.TurnInput.Expand):
// its !`command`s and @files as Bash and Read tool calls of the turn. The
// file's allowed-tools are granted for the turn (a person invoked it) — a
// repository's file's as project rules (no read outside, no fetch); a rule
// that does not parse was refused when the file was read. Its model is used
// when it names the session's provider's model.
//
// A prompt that is no /NAME line but mentions files (@README.md, @src/a.go:
// skill.FileRefs) is one too: the line as typed, its files attached as a
// command's @files are (skill.ExpandMentions: Read tool calls of the turn,
// the same guard and rules), as Claude Code attaches an @-mentioned file.
func (s *Setup) Invocation(line string) (agent.TurnInput, bool) {
	name, args, ok := splitInvocation(line)
	if !ok {
		if len(skill.FileRefs(line)) == 0 {
			return agent.TurnInput{}, false
		}
		return agent.TurnInput{Text: line, Expand: func(ctx context.Context, run agent.PreTurn) (string, error) {
			return skill.ExpandMentions(ctx, line, run)
		}}, true
	}
	root, getenv := s.Workspace.Root(), os.Getenv
	env := skill.GatherEnv{Root: root, Home: config.PathsFrom(getenv).Home, Getenv: getenv}
	sk, found := s.Skills.Lookup(name)
	if found && sk.UserInvocable {
		in := agent.TurnInput{Text: strings.TrimSpace(line), Model: s.skillModel(sk.Model), Tools: s.turnTools(sk)}
		for _, r := range sk.AllowedTools {
			rule, err := permission.ParseRule(r)
			if err != nil {
				continue
			}
			rule.Source = "/" + sk.Name + " (" + string(sk.Origin) + " " + string(sk.Kind) + ")"
			// A repository's skill or command grants what a repository's settings file
			// may: no read outside the workspace, no fetch (permission.Rule.Project).
			rule.Project = !sk.Origin.Trusted()
			in.AllowedTools = append(in.AllowedTools, rule)
		}
		in.Expand = func(ctx context.Context, run agent.PreTurn) (string, error) {
			e, err := skill.Expand(ctx, sk, args, env, run)
			return e.Text, err
		}
		return in, true
	}
	if src, ok := s.Skills.Source(name); ok {
		return agent.TurnInput{Text: strings.TrimSpace(line), Expand: func(ctx context.Context, _ agent.PreTurn) (string, error) {
			return src.Expand(ctx, name, args)
		}}, true
	}
	return agent.TurnInput{}, false
}

// splitInvocation splits "/NAME args" (leading white space allowed).
func splitInvocation(line string) (name, args string, ok bool) {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "/") || len(t) < 2 {
		return "", "", false
	}
	name, args, _ = strings.Cut(t[1:], " ")
	if i := strings.IndexAny(name, "\t\n"); i >= 0 {
		name, args = name[:i], name[i+1:]+" "+args
	}
	return name, strings.TrimSpace(args), true
}

// skillModel is the model ID a skill's `model:` asks of this session's
// provider: "PROVIDER/MODEL" of the session's provider, or a model the
// catalog knows for it; anything else (another provider's model, Claude
// Code's aliases "sonnet", "inherit") keeps the session's model.
func (s *Setup) skillModel(m string) string {
	m = strings.TrimSpace(m)
	if m == "" || s.Model.Provider == "" {
		return ""
	}
	if p, id, ok := strings.Cut(m, "/"); ok {
		if p == s.Model.Provider {
			return id
		}
		return ""
	}
	if _, ok := catalog.Lookup(s.Model.Provider, m); ok {
		return m
	}
	return ""
}
