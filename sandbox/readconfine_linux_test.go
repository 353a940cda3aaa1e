package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readConfineScene makes a workspace file and a secret in the home
// directory (outside every tree a confined command may read); it returns the
// secret's path and its marker.
func readConfineScene(t *testing.T, root string) (secret, marker string) {
	t.Helper()
	dir := filepath.Join(homeOutsideTemp(t), randName(".pincer-confine-test-"))
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	marker = randName("CONFINED-SECRET-")
	secret = filepath.Join(dir, "secret.txt")
	if err := os.WriteFile(secret, []byte(marker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "inside.txt"), []byte("INSIDE\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return secret, marker
}

// TestLandlockConfineReads: with ConfineReads a command reads the workspace,
// the system trees and runs git, but not a file in the home directory — not
// directly, through a symlink it made, a hard link, /proc/self/root or cd;
// without it (the control) the same command reads the file.
func TestLandlockConfineReads(t *testing.T) {
	if Probe().LandlockABI == 0 {
		t.Skip("Landlock unavailable")
	}
	pol := DefaultPolicy()
	pol.ConfineReads = true
	e, root := newSandbox(t, pol)
	secret, marker := readConfineScene(t, root)
	rel, err := filepath.Rel(filepath.Dir(root), secret)
	if err != nil {
		t.Fatal(err)
	}
	res := sh(t, e, "cat inside.txt && head -c 0 /etc/passwd && git --version >/dev/null && ls /usr/bin >/dev/null && echo OK")
	if res.ExitCode != 0 || !strings.Contains(res.Output, "INSIDE") || !strings.Contains(res.Output, "OK") {
		t.Fatalf("a confined command cannot read the workspace and the system: exit %d\n%s", res.ExitCode, res.Output)
	}
	for _, script := range []string{
		"cat " + secret,
		"ln -s " + secret + " l && cat l",
		"ln " + secret + " h; cat h",
		"cat /proc/self/root" + secret,
		"cd .. && cat " + rel,
		"ls " + filepath.Dir(secret),
	} {
		res := sh(t, e, script)
		if strings.Contains(res.Output, marker) {
			t.Errorf("confined %q read outside: exit %d\n%s", script, res.ExitCode, res.Output)
		}
		if res.ExitCode == 0 {
			t.Errorf("confined %q succeeded:\n%s", script, res.Output)
		}
	}
	free, _ := newSandbox(t, DefaultPolicy())
	if res := sh(t, free, "cat "+secret); !strings.Contains(res.Output, marker) {
		t.Errorf("unconfined, the command no longer reads outside: exit %d\n%s", res.ExitCode, res.Output)
	}
}

// TestWarmConfineReads: a confined command does not take the warm helper an
// unconfined one left waiting (their specs differ), and an unconfined one
// does not take a confined helper's place either.
func TestWarmConfineReads(t *testing.T) {
	if Probe().LandlockABI == 0 {
		t.Skip("Landlock unavailable")
	}
	e, root := newSandbox(t, DefaultPolicy())
	e.Warm = true
	secret, marker := readConfineScene(t, root)
	t.Cleanup(StopWarm)
	for i, confine := range []bool{false, false, true, true, false} {
		e.Policy.ConfineReads = confine
		res := sh(t, e, "cat "+secret)
		if got := strings.Contains(res.Output, marker); got == confine {
			t.Errorf("run %d (confined %v): read the secret %v\n%s", i, confine, got, res.Output)
		}
	}
}

// TestConfineReadsFailsClosed: without the OS sandbox or without Landlock a
// confined command does not run, and CanConfineReads says why.
func TestConfineReadsFailsClosed(t *testing.T) {
	ws, err := NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	noLandlock := func([]string) Report {
		return Report{LandlockError: "pretend", MountNamespace: true, NetNamespace: true, PIDNamespace: true}
	}
	for _, c := range []struct {
		name string
		e    *Executor
	}{
		{"sandbox off", &Executor{Policy: Policy{ConfineReads: true}, Workspace: ws}},
		{"no Landlock", &Executor{Policy: Policy{Enabled: true, ConfineReads: true}, Workspace: ws, probe: noLandlock}},
	} {
		if err := c.e.CanConfineReads(); !errors.Is(err, ErrReadsNotConfined) {
			t.Errorf("%s: CanConfineReads = %v, want ErrReadsNotConfined", c.name, err)
		}
		marker := filepath.Join(ws.Root(), "RAN")
		_, err := c.e.Run(t.Context(), Command{Path: "touch", Args: []string{marker}, Dir: ws.Root()})
		if !errors.Is(err, ErrReadsNotConfined) {
			t.Errorf("%s: Run = %v, want ErrReadsNotConfined", c.name, err)
		}
		mustNotExist(t, marker)
	}
	if Probe().LandlockABI > 0 {
		if err := (&Executor{Policy: DefaultPolicy(), Workspace: ws}).CanConfineReads(); err != nil {
			t.Errorf("CanConfineReads with Landlock: %v", err)
		}
	}
}
