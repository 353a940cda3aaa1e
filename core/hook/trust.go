package hook

// Project hooks and trust. The project's own files (.pincer/config.toml,
// .claude/settings.json, .claude/settings.local.json: Source.Project) come with
// the repository, which pincer does not trust (docs/SECURITY.md): their hooks
// run outside the sandbox, so they run only once the user has trusted them. The
// files are read and validated either way (a broken one still fails closed);
// WithoutProject drops their hooks from a Runner, and
// config.Sources.ProjectHookDigest names the contents the user trusts.

// WithoutProject returns a Runner with the same settings and only the hooks that
// do not come from a project file, and the Source (file path) of each hook it
// dropped, in event order then definition order. r itself is unchanged.
func (r *Runner) WithoutProject() (*Runner, []string) {
	if r == nil {
		return nil, nil
	}
	out := &Runner{projectDir: r.projectDir, defs: map[Event][]compiled{}, shell: r.shell, killGrace: r.killGrace}
	var dropped []string
	for _, ev := range Events {
		for _, c := range r.defs[ev] {
			if c.Project {
				dropped = append(dropped, c.Source)
				continue
			}
			out.defs[ev] = append(out.defs[ev], c)
		}
	}
	return out, dropped
}

// ProjectDefs returns the hooks that come from project files, for display.
func (r *Runner) ProjectDefs() map[Event][]Def {
	out := map[Event][]Def{}
	for ev, list := range r.Defs() {
		for _, d := range list {
			if d.Project {
				out[ev] = append(out[ev], d)
			}
		}
	}
	return out
}
