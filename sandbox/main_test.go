package sandbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestMain lets this test binary be the sandbox helper: the Executor re-executes
// it as `sandbox.test sandbox-exec --spec ... -- CMD`. With
// PINCER_SANDBOX_TEST_PARENT=DIR it is instead a stand-in for pincer (see
// TestSandboxKilledParent, TestStartKilledParent): it runs PINCER_SANDBOX_TEST_SCRIPT in
// a sandbox over the workspace DIR (in the background with
// PINCER_SANDBOX_TEST_BACKGROUND set) and exits when the command does.
func TestMain(m *testing.M) {
	RunHelperIfRequested()
	// PINCER_SANDBOX_TEST_WARM=1 runs every Executor's commands through a
	// warm helper (warm_linux.go), to check it behaves as the classic one.
	warmAll = os.Getenv("PINCER_SANDBOX_TEST_WARM") == "1"
	if len(os.Args) == 3 && os.Args[1] == dialCommand {
		os.Exit(dialMain(os.Args[2]))
	}
	if dir := os.Getenv("PINCER_SANDBOX_TEST_PARENT"); dir != "" {
		os.Exit(parentMain(dir, os.Getenv("PINCER_SANDBOX_TEST_SCRIPT")))
	}
	code := m.Run()
	StopWarm()
	if warmAll {
		fmt.Fprintf(os.Stderr, "warm helpers: %d from the pool, %d started, %d fell back to a classic helper\n",
			warmCounts.pooled.Load(), warmCounts.started.Load(), warmCounts.fellBack.Load())
	}
	if pincerBinDir != "" { // built by a benchmark (bench_pincer_linux_test.go)
		os.RemoveAll(pincerBinDir)
	}
	os.Exit(code)
}

// pincerBinDir holds the pincer binary a benchmark built (pincerBinary, ""
// until then); TestMain removes it.
var pincerBinDir string

// parentMain runs script under DefaultPolicy in the workspace dir, changed
// by PINCER_SANDBOX_TEST_WRITABLE (writable roots, colon-separated),
// PINCER_SANDBOX_TEST_CONFINE=1 (ConfineReads) and
// PINCER_SANDBOX_TEST_GITREADS (colon-separated). With
// PINCER_SANDBOX_TEST_SCRIPT2 set it runs that second, in the same process
// and under the same Executor, and returns its exit code.
func parentMain(dir, script string) int {
	ws, err := NewWorkspace(dir)
	if err != nil {
		return 3
	}
	pol := DefaultPolicy()
	if w := os.Getenv("PINCER_SANDBOX_TEST_WRITABLE"); w != "" {
		pol.WritableRoots = filepath.SplitList(w)
	}
	if g := os.Getenv("PINCER_SANDBOX_TEST_GITREADS"); g != "" {
		pol.GitReads = filepath.SplitList(g)
	}
	pol.ConfineReads = os.Getenv("PINCER_SANDBOX_TEST_CONFINE") == "1"
	e := &Executor{Policy: pol, Workspace: ws}
	if second := os.Getenv("PINCER_SANDBOX_TEST_SCRIPT2"); second != "" {
		for _, s := range []string{script, second} {
			res, err := e.Run(context.Background(), Command{Path: "bash", Args: []string{"-c", s}, Dir: dir, Timeout: time.Minute})
			if err != nil {
				fmt.Println(err)
				return 4
			}
			fmt.Print(res.Output)
			if s == second {
				return res.ExitCode
			}
		}
	}
	if os.Getenv("PINCER_SANDBOX_TEST_BACKGROUND") != "" {
		// A background shell, started from another goroutine than the one
		// that waits (as a tool call starts it and the session lives on).
		started := make(chan *Process)
		go func() {
			p, err := e.Start(context.Background(), Command{Path: "bash", Args: []string{"-c", script}, Dir: dir})
			if err != nil {
				fmt.Println(err)
				os.Exit(4)
			}
			started <- p
		}()
		res := (<-started).Wait()
		fmt.Print(res.Output)
		return res.ExitCode
	}
	res, err := e.Run(context.Background(), Command{Path: "bash", Args: []string{"-c", script}, Dir: dir, Timeout: time.Minute})
	if err != nil {
		fmt.Println(err)
		return 4
	}
	fmt.Print(res.Output)
	return res.ExitCode
}

// keep testing imported when no test uses it directly here.
var _ = testing.Short
