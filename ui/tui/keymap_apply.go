package tui

import (
	"fmt"
	"sort"
)

// Apply overrides the key map with one [keys] table (action name to keys, as
// core/config's KeyTable holds it; action names are those of `?` help), read
// from the file at path. The table applies as a whole: a swap (`newline =
// "enter"` with `send = "ctrl+s"`) is no conflict, whichever entry comes
// first. An entry that does not apply (an unknown action, a key that does not
// parse, a key another action still holds where both could apply) is left
// out — its action keeps its keys — and reported as one "PATH: [keys]
// ACTION: problem" line, in action-name order; the others still apply.
func (k *KeyMap) Apply(path string, bindings map[string]string) []string {
	actions := make([]string, 0, len(bindings))
	for a := range bindings {
		actions = append(actions, a)
	}
	sort.Strings(actions)
	problems := map[string]string{}
	before := map[int][]Key{} // the keys of each binding the table changed, before it
	for _, a := range actions {
		idx := k.index(a)
		if idx < 0 {
			problems[a] = fmt.Sprintf("keys: unknown action %q", a)
			continue
		}
		ks, err := ParseKeys(bindings[a])
		switch {
		case err != nil:
			problems[a] = err.Error()
			continue
		case len(ks) == 0:
			problems[a] = fmt.Sprintf("keys: no key given for %q", a)
			continue
		}
		before[idx] = k.bindings[idx].Keys
		k.bindings[idx].Keys = ks
	}
	// Undo the entries still in conflict once all are in, until none is
	// (undoing one can only bring back keys the defaults had).
	for changed := true; changed; {
		changed = false
		for _, a := range actions {
			idx := k.index(a)
			old, ok := before[idx]
			if !ok {
				continue
			}
			if err := k.conflict(idx, k.bindings[idx].Keys); err != nil {
				problems[a] = err.Error()
				k.bindings[idx].Keys = old
				delete(before, idx)
				changed = true
			}
		}
	}
	var bad []string
	for _, a := range actions {
		if p, ok := problems[a]; ok {
			bad = append(bad, path+": [keys] "+a+": "+p)
		}
	}
	return bad
}

// index is the position of an action's binding, -1 for an unknown action.
func (k *KeyMap) index(action string) int {
	for i, b := range k.bindings {
		if string(b.Action) == action {
			return i
		}
	}
	return -1
}
