package tui

import "sort"

// Apply overrides the key map with one [keys] table (action name to keys, as
// core/config's KeyTable holds it; action names are those of `?` help), read
// from the file at path, in action-name order. An entry that does not apply (an
// unknown action, a key that does not parse) is left out and reported as one
// "PATH: [keys] ACTION: problem" line; the others still apply.
func (k *KeyMap) Apply(path string, bindings map[string]string) []string {
	actions := make([]string, 0, len(bindings))
	for a := range bindings {
		actions = append(actions, a)
	}
	sort.Strings(actions)
	var bad []string
	for _, a := range actions {
		if err := k.Override(a, bindings[a]); err != nil {
			bad = append(bad, path+": [keys] "+a+": "+err.Error())
		}
	}
	return bad
}
