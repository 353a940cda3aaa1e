package sandbox

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
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
	before := childrenCPU()
	for b.Loop() {
		if res, err := run(context.Background(), c); err != nil || res.ExitCode != 0 {
			b.Fatalf("exit %d: %v %q", res.ExitCode, err, res.Output)
		}
	}
	// The CPU time of the processes started (the helper, the command), which
	// a loaded machine inflates far less than wall time.
	b.ReportMetric(float64(childrenCPU()-before)/1e3/float64(b.N), "child-cpu-µs/op")
}

// childrenCPU is the user+system time of this process's waited-for
// descendants so far, in nanoseconds.
func childrenCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
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

// BenchmarkBackgroundStartKill is one background shell's life through an
// Executor with DefaultPolicy: Start (the helper, namespaces, Landlock)
// until the command has printed its first line, then Kill of its PID
// namespace (SIGTERM, which `sleep` obeys).
func BenchmarkBackgroundStartKill(b *testing.B) {
	ws, err := NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	e := &Executor{Policy: DefaultPolicy(), Workspace: ws}
	c := Command{Path: "sh", Args: []string{"-c", "echo up; exec sleep 60"}, Dir: ws.Root()}
	for b.Loop() {
		p, err := e.Start(context.Background(), c)
		if err != nil {
			b.Fatal(err)
		}
		for p.Output().Total() == 0 {
			time.Sleep(time.Millisecond)
		}
		if res := p.Kill(); !res.Canceled {
			b.Fatalf("not killed: %+v", res)
		}
	}
}

// BenchmarkTailBufferWrite is the cost of a background shell's output: 4
// KiB writes into a 1 MiB TailBuffer, past its limit.
func BenchmarkTailBufferWrite(b *testing.B) {
	t := NewTailBuffer(DefaultBackgroundOutput)
	chunk := make([]byte, 4096)
	b.SetBytes(int64(len(chunk)))
	for b.Loop() {
		_, _ = t.Write(chunk)
	}
}

// BenchmarkSandboxedTrueBoundSockets is BenchmarkSandboxedTrue with 300 more
// Unix sockets bound, each in a directory of its own under /tmp (a writable
// tree, so each is pinned too): the cost of hiding every bound socket outside
// the workspace (BoundSockets, foreignSockets, hidePaths).
func BenchmarkSandboxedTrueBoundSockets(b *testing.B) {
	base := b.TempDir()
	for i := range 300 {
		dir := filepath.Join(base, fmt.Sprint("d", i))
		if err := os.Mkdir(dir, 0o700); err != nil {
			b.Fatal(err)
		}
		ln, err := net.Listen("unix", filepath.Join(dir, "s.sock"))
		if err != nil {
			b.Fatal(err)
		}
		defer ln.Close()
	}
	ws, err := NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	e := &Executor{Policy: DefaultPolicy(), Workspace: ws}
	benchRun(b, e.Run)
}

// BenchmarkSandboxedTrueWarm is BenchmarkSandboxedTrue with Executor.Warm,
// each command finding its helper ready (as between two turns of a model,
// which take seconds): the wait for the pre-start is outside the timer.
func BenchmarkSandboxedTrueWarm(b *testing.B) {
	benchWarm(b, testHelper(), true)
}

// BenchmarkSandboxedTrueWarmBackToBack is BenchmarkSandboxedTrueWarm with
// the commands back to back: each waits for the rest of its helper's
// start-up, begun when the one before ended.
func BenchmarkSandboxedTrueWarmBackToBack(b *testing.B) {
	benchWarm(b, testHelper(), false)
}

// testHelper is the helper command line of the benchmarks without pincer:
// this test binary.
func testHelper() []string { return nil }

// benchWarm runs `true` b.N times through a warm Executor with helper (nil:
// the default), waiting outside the timer for each pre-start when ready.
func benchWarm(b *testing.B, helper []string, ready bool) {
	benchWarmPolicies(b, helper, ready, DefaultPolicy())
}

// benchWarmPolicies is benchWarm with the commands run under pols in turn
// (each policy's helper pre-started after its command).
func benchWarmPolicies(b *testing.B, helper []string, ready bool, pols ...Policy) {
	ws, err := NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(StopWarm)
	var exs []*Executor
	for _, pol := range pols {
		exs = append(exs, &Executor{Policy: pol, Workspace: ws, Helper: helper, Warm: true})
	}
	c := Command{Path: "true", Dir: ws.Root()}
	for _, e := range exs { // warm up (probe, caches, each policy's helper)
		if _, err := e.Run(context.Background(), c); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	n := 0
	pooled, early := warmCounts.pooled.Load(), warmCounts.gated.Load()
	before := childrenCPU()
	for b.Loop() {
		if ready {
			b.StopTimer()
			warmPool.starts.Wait()
			b.StartTimer()
		}
		e := exs[n%len(exs)]
		n++
		if res, err := e.Run(context.Background(), c); err != nil || res.ExitCode != 0 {
			b.Fatalf("exit %d: %v %q", res.ExitCode, err, res.Output)
		}
	}
	b.ReportMetric(float64(childrenCPU()-before)/1e3/float64(b.N), "child-cpu-µs/op")
	// The share of commands that found their helper waiting: the others
	// (the host's bound sockets changed since the pre-start) started one.
	b.ReportMetric(100*float64(warmCounts.pooled.Load()-pooled)/float64(b.N), "%pooled")
	// The share whose request went to the helper before the plan (sendEarly)
	// and got its go.
	b.ReportMetric(100*float64(warmCounts.gated.Load()-early)/float64(b.N), "%early")
}

// BenchmarkSandboxedTrueWarmConfineReads is BenchmarkSandboxedTrueWarm
// with ConfineReads: what a call allowed for its paths (the read-only set,
// acceptEdits) runs under since red team r21.
func BenchmarkSandboxedTrueWarmConfineReads(b *testing.B) {
	pol := DefaultPolicy()
	pol.ConfineReads = true
	benchWarmPolicies(b, testHelper(), true, pol)
}

// BenchmarkSandboxedTrueWarmAlternating runs confined and unconfined
// commands in turn (an auto-allowed read, then an approved command): each
// policy keeps its own waiting helper (maxIdleWarm).
func BenchmarkSandboxedTrueWarmAlternating(b *testing.B) {
	pol := DefaultPolicy()
	pol.ConfineReads = true
	benchWarmPolicies(b, testHelper(), true, pol, DefaultPolicy())
}

// BenchmarkSandboxedTrueConfineReads is BenchmarkSandboxedTrue with
// ConfineReads (a command only a repository's rule allowed): the read list
// computed and resolved for each command, and one Landlock rule per entry.
func BenchmarkSandboxedTrueConfineReads(b *testing.B) {
	ws, err := NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	pol := DefaultPolicy()
	pol.ConfineReads = true
	e := &Executor{Policy: pol, Workspace: ws}
	benchRun(b, e.Run)
}
