package skill

import "strings"

// addShortNames gives each command of a user or project commands/
// subdirectory its Claude Code name: .claude/commands/frontend/lint.md is
// /lint (subdirectories organise, they do not rename), and /frontend:lint
// stays an alias. The rule for a short name taken twice: an invocable of
// exactly that name (built-in, plugin, skill or top-level command) keeps it,
// else the first subdirectory command of that base name in discovery order
// (user before project, subdirectories in sorted order) gets it; the others
// answer only to their DIR:NAME. Plugin commands keep their plugin namespace.
func (c *Catalog) addShortNames() {
	for i, s := range c.skills {
		if s.Kind != KindCommand || (s.Origin != OriginUser && s.Origin != OriginProject) {
			continue
		}
		k := strings.LastIndex(s.Name, ":")
		if k < 0 {
			continue
		}
		if _, taken := c.byName[s.Name[k+1:]]; !taken {
			c.byName[s.Name[k+1:]] = i
			c.short = append(c.short, s.Name[k+1:])
		}
	}
}

// shortEntries are the Entries of the short names, each described as Claude
// Code does: its description then "(project:frontend)" (the origin and the
// subdirectory).
func (c *Catalog) shortEntries() []Entry {
	var out []Entry
	for _, n := range c.short {
		s := c.skills[c.byName[n]]
		if !s.UserInvocable {
			continue
		}
		e := s.Entry()
		e.Name = n
		dir := strings.ReplaceAll(strings.TrimSuffix(s.Name, ":"+n), ":", "/")
		e.Description = strings.TrimSpace(e.Description + " (" + string(s.Origin) + ":" + dir + ")")
		out = append(out, e)
	}
	return out
}
