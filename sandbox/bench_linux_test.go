package sandbox

import (
	"context"
	"testing"
)

// benchRun runs `true` b.N times through run.
func benchRun(b *testing.B, run func(context.Context, Command) (Result, error)) {
	ws, err := NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	c := Command{Path: "true", Dir: ws.Root()}
	if _, err := run(context.Background(), c); err != nil { // warm up (probe, caches)
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if res, err := run(context.Background(), c); err != nil || res.ExitCode != 0 {
			b.Fatalf("exit %d: %v %q", res.ExitCode, err, res.Output)
		}
	}
}

// BenchmarkPlainTrue is `true` through Run: process group, env allowlist.
func BenchmarkPlainTrue(b *testing.B) { benchRun(b, Run) }

// BenchmarkSandboxedTrue is `true` through an Executor with DefaultPolicy:
// the helper, rlimits, Landlock, protected paths (mount namespace when
// available).
func BenchmarkSandboxedTrue(b *testing.B) {
	ws, err := NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	e := &Executor{Policy: DefaultPolicy(), Workspace: ws}
	benchRun(b, e.Run)
}

// BenchmarkSandboxedTrueNoNetwork adds a network namespace.
func BenchmarkSandboxedTrueNoNetwork(b *testing.B) {
	ws, err := NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	pol := DefaultPolicy()
	pol.Network = false
	e := &Executor{Policy: pol, Workspace: ws}
	benchRun(b, e.Run)
}

// BenchmarkSandboxedTrueCarve is the Landlock-only carve-out (no mount
// namespace), as on a machine without namespaces.
func BenchmarkSandboxedTrueCarve(b *testing.B) {
	ws, err := NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	e := &Executor{Policy: DefaultPolicy(), Workspace: ws, probe: withoutMountNS}
	benchRun(b, e.Run)
}

// BenchmarkRlimitsOnlyTrue is the helper without the OS sandbox.
func BenchmarkRlimitsOnlyTrue(b *testing.B) {
	ws, err := NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	e := &Executor{Workspace: ws}
	benchRun(b, e.Run)
}
