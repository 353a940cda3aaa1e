package plugin

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// SkillNames are the names of the plugin's skills as the person runs them,
// "PLUGIN:SKILL" (a skill directory's name), in order: for listing. The
// skills themselves are read by the skill loader from SkillDirs.
func (p *Plugin) SkillNames() []string {
	var out []string
	for _, d := range p.SkillDirs {
		if isFile(filepath.Join(d, "SKILL.md")) {
			out = append(out, p.Name+":"+filepath.Base(d))
			continue
		}
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if isFile(filepath.Join(d, e.Name(), "SKILL.md")) {
				out = append(out, p.Name+":"+e.Name())
			}
		}
	}
	sort.Strings(out)
	return out
}

// CommandNames are the names of the plugin's commands, "PLUGIN:NAME" (a
// file in a subdirectory: "PLUGIN:DIR:NAME", as Claude Code namespaces
// .claude/commands), in order: for listing.
func (p *Plugin) CommandNames() []string {
	var out []string
	for _, c := range p.CommandPaths {
		if isFile(c) {
			out = append(out, p.Name+":"+strings.TrimSuffix(filepath.Base(c), ".md"))
			continue
		}
		_ = filepath.WalkDir(c, func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(path, ".md") {
				return nil
			}
			rel, _ := filepath.Rel(c, strings.TrimSuffix(path, ".md"))
			out = append(out, p.Name+":"+strings.ReplaceAll(filepath.ToSlash(rel), "/", ":"))
			return nil
		})
	}
	sort.Strings(out)
	return out
}

// HookSummaries are the plugin's hooks, one "EVENT [MATCHER]: COMMAND" each.
func (p *Plugin) HookSummaries() []string {
	var out []string
	for _, t := range p.Hooks {
		for _, h := range t.Hooks {
			m := ""
			if h.Matcher != "" {
				m = " [" + h.Matcher + "]"
			}
			out = append(out, h.Event+m+": "+h.Command)
		}
	}
	return out
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
