package config

import "strings"

// memoryKeys are the keys of the [memory] table.
var memoryKeys = []string{"enabled", "observe", "max_per_session"}

// MemorySettings are the [memory] table of the user's config.toml (issue
// 16): whether pincer's long-term memory is on (the snapshot in a new
// session's system prompt, the Remember tool, "remember that …" prompts),
// whether the post-turn observer proposes memories, and how many memory
// candidates one session may propose. nil and 0 are not set: the defaults
// hold.
type MemorySettings struct {
	// EnabledSet is enabled as written (nil: on).
	EnabledSet *bool
	// ObserveSet is observe as written (nil: on).
	ObserveSet *bool
	// MaxPerSession caps the memory candidates of one session, 1 to 100
	// (default DefaultMemoryPerSession).
	MaxPerSession int
}

// DefaultMemoryPerSession is how many memory candidates a session may
// propose unless max_per_session says otherwise.
const DefaultMemoryPerSession = 5

// Enabled is whether memory is on: enabled, default true.
func (c MemorySettings) Enabled() bool { return c.EnabledSet == nil || *c.EnabledSet }

// Observe is whether the post-turn memory observer runs: memory on and
// observe, default true.
func (c MemorySettings) Observe() bool { return c.Enabled() && (c.ObserveSet == nil || *c.ObserveSet) }

// PerSession is the session's cap of memory candidates (max_per_session,
// else DefaultMemoryPerSession).
func (c MemorySettings) PerSession() int {
	if c.MaxPerSession > 0 {
		return c.MaxPerSession
	}
	return DefaultMemoryPerSession
}

// Memory reads the [memory] table of the user's config.toml. A value of the
// wrong type or out of range, or an unknown key, is a warning and is left
// out (its default holds). A project file's [memory] is a warning and is not
// applied (userOnlyTables): a repository must not turn the person's memory
// on, off or up.
func (s *Sources) Memory() (MemorySettings, []error) {
	var out MemorySettings
	errs := s.projectUserOnly("memory")
	for _, d := range s.docs(UserConfig) {
		raw, ok := d.Tree["memory"]
		if !ok {
			continue
		}
		m, ok := raw.(map[string]any)
		if !ok {
			errs = append(errs, d.errorAt("memory", true, "[memory] not applied: memory must be a table, not %s", kindOf(raw)))
			continue
		}
		for _, k := range sortedMapKeys(m) {
			v := m[k]
			switch k {
			case "enabled", "observe":
				b, ok := v.(bool)
				if !ok {
					errs = append(errs, d.errorAt("memory."+k, true, "[memory] %s: want true or false, not %v", k, v))
					continue
				}
				if k == "enabled" {
					out.EnabledSet = &b
				} else {
					out.ObserveSet = &b
				}
			case "max_per_session":
				n, ok := v.(int64)
				if !ok || n < 1 || n > 100 {
					errs = append(errs, d.errorAt("memory."+k, true, "[memory] %s: want a number from 1 to 100, not %v", k, v))
					continue
				}
				out.MaxPerSession = int(n)
			default:
				errs = append(errs, d.errorAt("memory."+k, true, "[memory] unknown key %q, ignored (known: %s)", k, strings.Join(memoryKeys, ", ")))
			}
		}
	}
	return out, errs
}
