package skill

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Source is a provider of more invocables the catalog lists beside its own,
// whose entries may change while pincer runs (MCP prompts: servers come and
// go). Names must not collide with the catalog's (an MCP prompt's is
// "mcp__SERVER__PROMPT"); a colliding entry is not listed.
type Source interface {
	// Entries lists what it offers now (names without the slash).
	Entries() []Entry
	// Expand returns the turn's input for /NAME args (args: the text after
	// the name). Errors reach the person as the command's failure.
	Expand(ctx context.Context, name, args string) (string, error)
}

// Catalog is every invocable of a session: the discovered skills and commands
// (as Discover found them, until Rescan discovers them again) and the
// Sources' (asked each time). Safe for concurrent use.
type Catalog struct {
	setMu  sync.RWMutex // guards skills, byName and short (Rescan swaps them)
	skills []Skill
	byName map[string]int
	short  []string // the short names addShortNames gave, in order
	// Problems are the files that contributed nothing and the invocables
	// passed over for another of their name, as Discover found them (Rescan
	// returns its own).
	Problems []Problem
	dirs     *Dirs // where Discover looked (nil: NewCatalog's, nothing to rescan)

	mu      sync.Mutex
	sources []Source
}

// Rescan discovers the skills and commands again where Discover looked (a
// file added, changed or removed since is seen from now on: a new session's
// /NAME and index, as Claude Code sees a new command without a restart) and
// returns what it passed over. The Sources stay. A catalog NewCatalog made
// has nothing to rescan.
func (c *Catalog) Rescan() []Problem {
	if c == nil || c.dirs == nil {
		return nil
	}
	fresh := Discover(*c.dirs)
	c.setMu.Lock()
	defer c.setMu.Unlock()
	c.skills, c.byName, c.short = fresh.skills, fresh.byName, fresh.short
	return fresh.Problems
}

// NewCatalog is a catalog of exactly these skills (tests, and callers that
// discover themselves); a repeated name keeps the first.
func NewCatalog(skills ...Skill) *Catalog {
	c := &Catalog{byName: map[string]int{}}
	for _, s := range skills {
		c.add(s)
	}
	return c
}

// AddSource adds a Source (MCPCONF's MCP prompts).
func (c *Catalog) AddSource(s Source) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sources = append(c.sources, s)
}

// Skills returns the discovered skills and commands, in precedence order.
func (c *Catalog) Skills() []Skill {
	if c == nil {
		return nil
	}
	c.setMu.RLock()
	defer c.setMu.RUnlock()
	return slices.Clone(c.skills)
}

// Lookup finds a discovered skill or command by name (without the slash).
func (c *Catalog) Lookup(name string) (Skill, bool) {
	if c == nil {
		return Skill{}, false
	}
	c.setMu.RLock()
	defer c.setMu.RUnlock()
	i, ok := c.byName[strings.TrimPrefix(name, "/")]
	if !ok {
		return Skill{}, false
	}
	return c.skills[i], true
}

// Entries lists what a person can invoke: the user-invocable skills and
// commands, then the Sources' entries, as completion and /help show them.
func (c *Catalog) Entries() []Entry {
	if c == nil {
		return nil
	}
	c.setMu.RLock()
	defer c.setMu.RUnlock()
	var out []Entry
	for _, s := range c.skills {
		if s.UserInvocable {
			out = append(out, s.Entry())
		}
	}
	out = append(out, c.shortEntries()...)
	for _, src := range c.sourcesNow() {
		for _, e := range src.Entries() {
			if _, taken := c.byName[e.Name]; !taken && checkName(e.Name) == nil {
				out = append(out, e)
			}
		}
	}
	return out
}

// Source finds the Source offering name (an entry it lists now).
func (c *Catalog) Source(name string) (Source, bool) {
	if c == nil {
		return nil, false
	}
	for _, src := range c.sourcesNow() {
		for _, e := range src.Entries() {
			if e.Name == name {
				return src, true
			}
		}
	}
	return nil, false
}

func (c *Catalog) sourcesNow() []Source {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.sources)
}

// ForModel returns the skills the model may load with the Skill tool: skills
// (not commands) without disable-model-invocation.
func (c *Catalog) ForModel() []Skill {
	var out []Skill // nil catalog: Skills is nil
	for _, s := range c.Skills() {
		if s.Kind == KindSkill && !s.DisableModelInvocation {
			out = append(out, s)
		}
	}
	return out
}

// MaxIndexDescription caps one description in the index, in runes.
const MaxIndexDescription = 250

// Index is the skill index for the system prompt: one line per skill the
// model may load ("- name: description"), or "" when there is none.
func (c *Catalog) Index() string {
	skills := c.ForModel()
	if len(skills) == 0 {
		return ""
	}
	var b strings.Builder
	for _, s := range skills {
		d := strings.Join(strings.Fields(s.Description), " ")
		if r := []rune(d); len(r) > MaxIndexDescription {
			d = string(r[:MaxIndexDescription-1]) + "…"
		}
		fmt.Fprintf(&b, "- %s: %s\n", s.Name, d)
	}
	return b.String()
}

// SkillDirs are the base directories of the skills the model may load whose
// origin is trusted (built-in, plugin, user): the agent lets Read (only)
// reach files there, outside the workspace too. A project's skills are inside
// the workspace already; a project directory that links out of it gains
// nothing here.
func (c *Catalog) SkillDirs() []string {
	var out []string
	for _, s := range c.ForModel() {
		if s.Dir != "" && s.Origin.Trusted() {
			out = append(out, s.Dir)
		}
	}
	return out
}
