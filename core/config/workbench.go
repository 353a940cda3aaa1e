package config

import "strings"

// workbenchKeys are the keys of a [workbench] table.
var workbenchKeys = []string{"wide_columns", "approval_focus"}

// WorkbenchSettings are the [workbench] table's settings of the full-screen
// workbench. A zero field was not set.
type WorkbenchSettings struct {
	// WideColumns is the terminal width from which the auto layout shows
	// the four panes as columns (the workbench's default: 200); at least 40.
	WideColumns int
	// ApprovalFocusSet is approval_focus as written (nil: not set); see
	// ApprovalFocus.
	ApprovalFocusSet *bool
}

// ApprovalFocus is whether a permission request arriving while the input box
// is empty takes the focus to the Approvals pane: approval_focus, default
// true.
func (w WorkbenchSettings) ApprovalFocus() bool {
	return w.ApprovalFocusSet == nil || *w.ApprovalFocusSet
}

// Workbench reads the [workbench] table of the user's config.toml. A value of
// the wrong type or out of range, or an unknown key, is a warning and is left
// out. A project file's [workbench] is a warning and not applied
// (userOnlyTables: approval_focus decides where a keypress goes).
func (s *Sources) Workbench() (WorkbenchSettings, []error) {
	var out WorkbenchSettings
	errs := s.projectUserOnly("workbench")
	for _, d := range s.docs(UserConfig) {
		raw, ok := d.Tree["workbench"]
		if !ok {
			continue
		}
		m, ok := raw.(map[string]any)
		if !ok {
			errs = append(errs, d.errorAt("workbench", true, "[workbench] not applied: workbench must be a table, not %s", kindOf(raw)))
			continue
		}
		for _, k := range sortedMapKeys(m) {
			switch k {
			case "wide_columns":
				n, ok := m[k].(int64)
				if !ok || n < 40 || n > 10000 {
					errs = append(errs, d.errorAt("workbench."+k, true, "[workbench] wide_columns: want a number of columns from 40 to 10000, not %v", m[k]))
					continue
				}
				out.WideColumns = int(n)
			case "approval_focus":
				b, ok := m[k].(bool)
				if !ok {
					errs = append(errs, d.errorAt("workbench."+k, true, "[workbench] approval_focus: want true or false, not %v", m[k]))
					continue
				}
				out.ApprovalFocusSet = &b
			default:
				errs = append(errs, d.errorAt("workbench."+k, true, "[workbench] unknown key %q, ignored (known: %s)", k, strings.Join(workbenchKeys, ", ")))
			}
		}
	}
	return out, errs
}
