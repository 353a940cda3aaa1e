package tools

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/sandbox"
)

// homeSecret writes a marker file in a fresh directory of the home
// directory (outside every tree a confined command may read) and returns
// its path and marker; it skips where the home directory lies in a temp dir.
func homeSecret(t *testing.T) (string, string) {
	t.Helper()
	home, err := os.UserHomeDir()
	if err != nil || strings.HasPrefix(home, os.TempDir()) || strings.HasPrefix(home, "/tmp") {
		t.Skip("no home directory outside the temp dirs")
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	dir, err := os.MkdirTemp(home, ".pincer-confine-tools-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	marker := "CONFINED-" + hex.EncodeToString(b)
	p := filepath.Join(dir, "secret.txt")
	if err := os.WriteFile(p, []byte(marker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p, marker
}

// TestBashConfineReads: with Env.ConfineReads a foreground and a background
// command read the workspace but not the home directory, and the result
// says once why; without a sandbox the call fails rather than run; without
// ConfineReads (the control) the same command reads the file.
func TestBashConfineReads(t *testing.T) {
	if sandbox.Probe().LandlockABI == 0 {
		t.Skip("Landlock unavailable")
	}
	secret, marker := homeSecret(t)
	env, root, _ := bgEnv(t)
	writeTestFile(t, root, "inside.txt", "INSIDE\n")
	pol := sandbox.DefaultPolicy()
	env.Sandbox, env.ConfineReads = &pol, true
	res, err := runTool(t, Bash{}, env, BashInput{Command: "cat inside.txt; cat " + secret})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Output, marker) || !strings.Contains(res.Output, "INSIDE") || strings.Count(res.Output, ConfinedReadsNote) != 1 {
		t.Errorf("confined foreground result:\n%s", res.Output)
	}
	start, err := runTool(t, Bash{}, env, BashInput{Command: "cat " + secret + "; echo END", RunInBackground: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(start.Output, ConfinedReadsNote) != 1 {
		t.Errorf("the background start does not say its reads are confined:\n%s", start.Output)
	}
	if m := bashIDLine.FindStringSubmatch(start.Output); m == nil {
		t.Errorf("no bash_id in %q", start.Output)
	} else if out := untilOutput(t, env, m[1], "END"); strings.Contains(out, marker) {
		t.Errorf("a confined background shell read outside:\n%s", out)
	}
	env.Sandbox = nil
	if _, err := runTool(t, Bash{}, env, BashInput{Command: "cat " + secret}); !errors.Is(err, errUnconfinable) {
		t.Errorf("confined without a sandbox: %v, want errUnconfinable", err)
	}
	env.Sandbox, env.ConfineReads = &pol, false
	if res, err := runTool(t, Bash{}, env, BashInput{Command: "cat " + secret}); err != nil || !strings.Contains(res.Output, marker) || strings.Contains(res.Output, ConfinedReadsNote) {
		t.Errorf("unconfined: %v\n%s", err, res.Output)
	}
}
