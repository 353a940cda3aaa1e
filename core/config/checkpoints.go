package config

import "strings"

// checkpointsKeys are the keys of the [checkpoints] table.
var checkpointsKeys = []string{"enabled", "max_file_mb", "session_budget_mb", "total_budget_mb"}

// CheckpointsSettings are the [checkpoints] table of the user's config.toml
// (issue 15): whether pincer records file checkpoints before changes, and the
// limits of core/checkpoint.Options in MiB (0: not set, the default: 10 MiB
// per file, 512 MiB per session, 2048 MiB in all).
type CheckpointsSettings struct {
	// EnabledSet is enabled as written (nil: not set: on).
	EnabledSet *bool
	// MaxFileMB is the size cap of a recorded file, 1 to 1024 MiB.
	MaxFileMB int
	// SessionBudgetMB and TotalBudgetMB bound the stored (compressed)
	// bytes of one session's checkpoints and of all, 1 to 1048576 MiB.
	SessionBudgetMB, TotalBudgetMB int
}

// Enabled is whether checkpoints are recorded: enabled, default true.
func (c CheckpointsSettings) Enabled() bool { return c.EnabledSet == nil || *c.EnabledSet }

// Checkpoints reads the [checkpoints] table of the user's config.toml. A
// value of the wrong type or out of range, or an unknown key, is a warning
// and is left out (its default holds). A project file's [checkpoints] is a
// warning and is not applied (userOnlyTables): a repository must not turn
// off the record rewind relies on, nor shrink it to nothing.
func (s *Sources) Checkpoints() (CheckpointsSettings, []error) {
	var out CheckpointsSettings
	errs := s.projectUserOnly("checkpoints")
	for _, d := range s.docs(UserConfig) {
		raw, ok := d.Tree["checkpoints"]
		if !ok {
			continue
		}
		m, ok := raw.(map[string]any)
		if !ok {
			errs = append(errs, d.errorAt("checkpoints", true, "[checkpoints] not applied: checkpoints must be a table, not %s", kindOf(raw)))
			continue
		}
		for _, k := range sortedMapKeys(m) {
			v := m[k]
			mib := func(max int64) (int, bool) {
				n, ok := v.(int64)
				if !ok || n < 1 || n > max {
					errs = append(errs, d.errorAt("checkpoints."+k, true, "[checkpoints] %s: want MiB from 1 to %d, not %v", k, max, v))
					return 0, false
				}
				return int(n), true
			}
			switch k {
			case "enabled":
				b, ok := v.(bool)
				if !ok {
					errs = append(errs, d.errorAt("checkpoints."+k, true, "[checkpoints] enabled: want true or false, not %v", v))
					continue
				}
				out.EnabledSet = &b
			case "max_file_mb":
				if n, ok := mib(1024); ok {
					out.MaxFileMB = n
				}
			case "session_budget_mb":
				if n, ok := mib(1 << 20); ok {
					out.SessionBudgetMB = n
				}
			case "total_budget_mb":
				if n, ok := mib(1 << 20); ok {
					out.TotalBudgetMB = n
				}
			default:
				errs = append(errs, d.errorAt("checkpoints."+k, true, "[checkpoints] unknown key %q, ignored (known: %s)", k, strings.Join(checkpointsKeys, ", ")))
			}
		}
	}
	return out, errs
}
