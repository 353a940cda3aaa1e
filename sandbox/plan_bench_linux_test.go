package sandbox

import "testing"

// BenchmarkExecutorPlan is the parent's share of one sandboxed command under
// DefaultPolicy before anything is started: the plan (probe cached, bound
// sockets, hidden paths, trees) and the helper's command line.
func BenchmarkExecutorPlan(b *testing.B) {
	ws, err := NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	e := &Executor{Policy: DefaultPolicy(), Workspace: ws}
	if _, err := e.plan(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		p, err := e.plan()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := e.wrap(p, Command{Path: "true"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProtectedGuard is the parent's check of the protected paths
// around one command: the snapshot before and the quarantine pass after.
func BenchmarkProtectedGuard(b *testing.B) {
	ws, err := NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	pol := DefaultPolicy()
	q := b.TempDir()
	for b.Loop() {
		before := snapshotProtected(ws.Roots(), pol.readOnly())
		_ = quarantine(before, q)
	}
}

// BenchmarkWorldPrint is a warm helper's check that nothing its
// confinement depends on changed: the identity of every path of the spec
// under DefaultPolicy and the mount table.
func BenchmarkWorldPrint(b *testing.B) {
	ws, err := NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	e := &Executor{Policy: DefaultPolicy(), Workspace: ws}
	p, err := e.plan()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_ = worldPrint(p.spec)
	}
}
