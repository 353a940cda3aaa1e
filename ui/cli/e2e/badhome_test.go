package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadPincerHome: PINCER_HOME naming a file (or a path below one, or a
// relative path) fails every command, the workbench included, with one line
// naming PINCER_HOME and exit 2, before any directory is made from it.
func TestBadPincerHome(t *testing.T) {
	e := newEnv(t)
	file := filepath.Join(t.TempDir(), "afile")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, home := range []string{file, filepath.Join(file, "below"), "relative/home"} {
		for _, args := range [][]string{{"run", "hi"}, {"sessions"}, {"audit"}, {"model", "status"}, {}} {
			cmd := e.command(args...)
			cmd.Env = append(cmd.Env, "PINCER_HOME="+home)
			var errb strings.Builder
			cmd.Stderr = &errb
			err := cmd.Run()
			code := cmd.ProcessState.ExitCode()
			if err != nil && code < 0 {
				t.Fatal(err)
			}
			stderr := errb.String()
			if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "pincer: PINCER_HOME="+home) {
				t.Errorf("PINCER_HOME=%s pincer %q: exit %d, stderr:\n%s\nwant exit 2 and one line naming PINCER_HOME", home, args, code, stderr)
			}
		}
	}
}
