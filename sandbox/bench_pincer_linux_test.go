package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// pincerBinary builds pincer (the module's main package) once per test
// binary, for the benchmarks that re-execute the real binary as the helper.
// PINCER_BENCH_HELPER=PATH uses that pincer binary instead (an older
// release, to compare).
var pincerBinary = sync.OnceValues(func() (string, error) {
	if bin := os.Getenv("PINCER_BENCH_HELPER"); bin != "" {
		return bin, nil
	}
	dir, err := os.MkdirTemp("", "pincer-bench-")
	if err != nil {
		return "", err
	}
	pincerBinDir = dir
	bin := filepath.Join(dir, "pincer")
	cmd := exec.Command("go", "build", "-o", bin, "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", &exec.ExitError{Stderr: out}
	}
	return bin, nil
})

// BenchmarkSandboxedTruePincer is BenchmarkSandboxedTrue with pincer itself
// as the helper (`pincer sandbox-exec`, as in production): the helper pays
// pincer's package init on every command, which the test binary (the
// helper of the other benchmarks) does not link. Issue 19's goal: ≤ 2×
// BenchmarkPlainTrue.
func BenchmarkSandboxedTruePincer(b *testing.B) {
	bin, err := pincerBinary()
	if err != nil {
		b.Fatalf("building pincer: %v", err)
	}
	ws, err := NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	e := &Executor{Policy: DefaultPolicy(), Workspace: ws, Helper: []string{bin, HelperCommand}}
	benchRun(b, e.Run)
}

// BenchmarkSandboxedTruePincerWarm is BenchmarkSandboxedTrueWarm with
// pincer itself as the helper, as in use.
func BenchmarkSandboxedTruePincerWarm(b *testing.B) {
	bin, err := pincerBinary()
	if err != nil {
		b.Fatalf("building pincer: %v", err)
	}
	benchWarm(b, []string{bin, HelperCommand}, true)
}
