package hook

import (
	"os"
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

func TestProjectDigest(t *testing.T) {
	isolate(t)
	proj := t.TempDir()
	srcs := DefaultSources(proj, t.TempDir())
	d0, err := ProjectDigest(srcs)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, proj, ".claude/settings.json", `{"hooks":{}}`)
	d1, _ := ProjectDigest(srcs)
	if d1 == d0 {
		t.Error("creating a project file did not change the digest")
	}
	if again, _ := ProjectDigest(srcs); again != d1 {
		t.Error("the digest is not stable")
	}
	if err := os.WriteFile(filepath.Join(proj, ".claude/settings.json"), []byte(`{"hooks": {}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if d2, _ := ProjectDigest(srcs); d2 == d1 {
		t.Error("changing a project file did not change the digest")
	}
	// The user's files are not part of it.
	writeFile(t, filepath.Dir(srcs[0].Path), "config.toml", "[[hooks.Stop]]\ncommand = \"x\"\n")
	d3, _ := ProjectDigest(srcs)
	if d4, _ := ProjectDigest(srcs[:2]); d4 == d3 {
		t.Log("ok") // with no project source the digest is of nothing
	}
}
