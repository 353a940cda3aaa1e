package memory

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"pincer/core/event"
	"pincer/persist"
	pmem "pincer/persist/memory"
)

// fixture is a Manager over an in-memory store with fresh config, data and
// workspace dirs, and a session "s1" whose log it writes.
type fixture struct {
	m     *Manager
	store *pmem.Store
	ctx   context.Context
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	base := t.TempDir()
	dirs := map[string]string{}
	for _, d := range []string{"config", "data", "work"} {
		dirs[d] = filepath.Join(base, d)
		if err := os.MkdirAll(dirs[d], 0o700); err != nil {
			t.Fatal(err)
		}
	}
	store := pmem.New()
	ctx := context.Background()
	for _, id := range []string{"s1", "s2"} {
		if err := store.PutSession(ctx, persist.Session{ID: id, Cwd: dirs["work"]}); err != nil {
			t.Fatal(err)
		}
	}
	m := &Manager{Store: store, ConfigDir: dirs["config"], DataDir: dirs["data"], Project: dirs["work"],
		Log: event.NewLog(store)}
	return fixture{m: m, store: store, ctx: ctx}
}

// propose is a valid feedback proposal of session s1 named name.
func (f fixture) propose(t *testing.T, name, body string) Candidate {
	t.Helper()
	c, err := f.m.Propose(f.ctx, Proposal{Type: TypeFeedback, Name: name, Description: "how we indent",
		Body: body, SessionID: "s1", Turn: 1, Origin: OriginRequest})
	if err != nil {
		t.Fatalf("Propose %q: %v", name, err)
	}
	return c
}

// files lists every file under dir (relative, slash-separated).
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
