package hook

import (
	"path/filepath"
	"reflect"
	"testing"
)

func TestWithoutProject(t *testing.T) {
	isolate(t)
	for _, c := range []struct {
		name          string
		user, project string // config.toml bodies; "" writes no file
		keep          map[Event]int
		dropped       int
	}{
		{"none", "", "", map[Event]int{}, 0},
		{"user only", "[[hooks.SessionStart]]\ncommand = \"u\"\n", "", map[Event]int{SessionStart: 1}, 0},
		{"project only", "", "[[hooks.SessionStart]]\ncommand = \"p\"\n[[hooks.PreToolUse]]\ncommand = \"p2\"\n", map[Event]int{}, 2},
		{"both", "[[hooks.PreToolUse]]\ncommand = \"u\"\n", "[[hooks.PreToolUse]]\ncommand = \"p\"\n", map[Event]int{PreToolUse: 1}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			ph, proj := t.TempDir(), t.TempDir()
			if c.user != "" {
				writeFile(t, ph, "config.toml", c.user)
			}
			if c.project != "" {
				writeFile(t, proj, ".pincer/config.toml", c.project)
			}
			r, errs := Load(proj, ph)
			if len(errs) != 0 {
				t.Fatal(errs)
			}
			all := 0
			for _, l := range r.Defs() {
				all += len(l)
			}
			got, dropped := r.WithoutProject()
			if len(dropped) != c.dropped {
				t.Errorf("dropped %v, want %d", dropped, c.dropped)
			}
			for _, d := range dropped {
				if d != filepath.Join(proj, ".pincer/config.toml") {
					t.Errorf("dropped source %q", d)
				}
			}
			n := map[Event]int{}
			kept := 0
			for ev, l := range got.Defs() {
				for _, d := range l {
					if d.Project {
						t.Errorf("kept a project hook %v", d)
					}
				}
				if len(l) > 0 {
					n[ev] = len(l)
					kept += len(l)
				}
			}
			if !reflect.DeepEqual(n, c.keep) {
				t.Errorf("kept %v, want %v", n, c.keep)
			}
			if kept+len(dropped) != all {
				t.Errorf("kept %d + dropped %d != %d", kept, len(dropped), all)
			}
			pd := 0
			for _, l := range r.ProjectDefs() {
				pd += len(l)
			}
			if pd != c.dropped {
				t.Errorf("ProjectDefs has %d, want %d", pd, c.dropped)
			}
		})
	}
}
