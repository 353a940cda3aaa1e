package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// pincerRecords are the files, relative to PINCER_HOME, that only a person may
// create: each gives a command what it could not take (approved MCP servers,
// trusted hooks, enabled plugins, the user's config, skills and commands).
var pincerRecords = []string{
	"data/mcp-approvals.json", "data/trusted-projects.json", "data/plugins.json",
	"config.toml", "skills/evil/SKILL.md", "commands/evil.md",
}

// writableRoots are where the writable-root tests put a directory of pincer's
// or the user's: under /tmp or in the workspace, with and without a mount namespace.
var writableRoots = []string{"tmp", "workspace", "tmp-landlock-only", "workspace-landlock-only"}

// writableRootSandbox is a sandbox for one of writableRoots and the path of a
// directory named name there (not made): under a temporary directory, or in
// the workspace root; noMountNS is set for the "-landlock-only" forms.
func writableRootSandbox(t *testing.T, where, name string) (e *Executor, root, dir string, noMountNS bool) {
	t.Helper()
	e, root = newSandbox(t, DefaultPolicy())
	noMountNS = strings.HasSuffix(where, "-landlock-only")
	if noMountNS {
		e.probe = withoutMountNS
	}
	dir = filepath.Join(t.TempDir(), name)
	if strings.HasPrefix(where, "workspace") {
		dir = filepath.Join(root, name)
	}
	return e, root, dir, noMountNS
}

// pincerDirAttacks are the shell forms that create rec (a path relative to
// PINCER_HOME, whose absolute form is abs) from the workspace root; lnk is
// a symlink the repository ships that leads to PINCER_HOME.
func pincerDirAttacks(abs, rec, lnk string) []string {
	dir := filepath.Dir(abs)
	return []string{
		"echo '{\"x\":1}' > " + abs,
		"mkdir -p " + dir + " && touch " + abs,
		"echo x > payload && mkdir -p " + dir + " && cp payload " + abs,
		"echo x > payload2 && mkdir -p " + dir + " && mv payload2 " + abs,
		"mkdir -p " + dir + " && ln -s /etc/hostname " + abs,
		"echo x > hl && mkdir -p " + dir + " && ln hl " + abs,
		"sh -c 'mkdir -p " + dir + "; echo x > " + abs + "'",
		"python3 -c 'import os; os.makedirs(\"" + dir + "\", exist_ok=True); open(\"" + abs + "\", \"w\").write(\"x\")'",
		"cd " + filepath.Dir(dir) + " && mkdir -p " + filepath.Base(dir) + " && cd " + filepath.Base(dir) + " && echo x > " + filepath.Base(abs),
		"mkdir -p " + filepath.Join(lnk, filepath.Dir(rec)) + " && echo x > " + filepath.Join(lnk, rec),
		"mv " + filepath.Dir(filepath.Dir(abs)) + " moved 2>/dev/null; mkdir -p " + dir + " && echo x > " + abs,
	}
}

// TestSandboxPincerDirsInWritableRoot: with PINCER_HOME in the temp dir and in
// the workspace (both writable), and the session's spill directory (under
// DATA/tool-results) added to the workspace as pincer adds it, no command can
// create one of pincer's record files, in any of many forms; the spill
// directory stays writable, and the directory stays hidden.
func TestSandboxPincerDirsInWritableRoot(t *testing.T) {
	for _, where := range writableRoots {
		t.Run(where, func(t *testing.T) {
			e, root, home, noMountNS := writableRootSandbox(t, where, "pincer-home")
			spill := filepath.Join(home, "data", "tool-results", "S1")
			if err := os.MkdirAll(spill, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, "secrets.json"), []byte("SECRET-store"), 0o600); err != nil {
				t.Fatal(err)
			}
			t.Setenv("PINCER_HOME", home)
			// Without a mount namespace the spill dir (a workspace root with
			// protected paths of its own) would have the trees carved down to
			// it anyway: leave it out, so that only carvePincerDirs protects.
			if !noMountNS {
				if err := e.Workspace.AddDir(spill); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(home, filepath.Join(root, "shipped-link")); err != nil {
				t.Fatal(err)
			}
			for _, rec := range pincerRecords {
				abs := filepath.Join(home, rec)
				for _, a := range pincerDirAttacks(abs, rec, "shipped-link") {
					if res := sh(t, e, a); testing.Verbose() {
						t.Log(a, res.Output)
					}
					if _, err := os.Lstat(abs); err == nil {
						t.Errorf("%q created %s", a, abs)
						os.RemoveAll(filepath.Join(home, strings.Split(rec, "/")[0]))
						_ = os.MkdirAll(spill, 0o700)
					}
				}
			}
			if _, err := os.Stat(filepath.Join(home, "data")); err != nil {
				t.Fatalf("the data directory was moved away: %v", err)
			}
			if noMountNS {
				if r, _ := e.Report(); !strings.Contains(r.String(), "pincer's own directories") {
					t.Errorf("the Landlock-only protection is not reported:\n%s", r)
				}
				return // hidden paths are readable there (reported), the spill dir too
			}
			if res := sh(t, e, "echo out > "+filepath.Join(spill, "call.txt")+" && cat "+filepath.Join(spill, "call.txt")); !strings.Contains(res.Output, "out") {
				t.Errorf("the spill directory is not writable: %q", res.Output)
			}
			if res := sh(t, e, "cat "+filepath.Join(home, "secrets.json")+" 2>/dev/null; ls -a "+home+" "+filepath.Join(home, "data")); strings.Contains(res.Output, "SECRET") || strings.Contains(res.Output, "secrets.json") || !strings.Contains(res.Output, "tool-results") {
				t.Errorf("pincer's directory is not hidden: %q", res.Output)
			}
		})
	}
}

// TestActivePincerDirs: the run dir's fallback under the temp dir is made and
// carved only when it is the run dir in use.
func TestActivePincerDirs(t *testing.T) {
	fb := filepath.Join("/t", "pincer-"+strconv.Itoa(os.Getuid()))
	for _, c := range []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"defaults: the fallback is the run dir", map[string]string{"TMPDIR": "/t"}, []string{"/h/.config/pincer", "/h/.local/share/pincer", fb}},
		{"XDG_RUNTIME_DIR: no fallback", map[string]string{"TMPDIR": "/t", "XDG_RUNTIME_DIR": "/r"}, []string{"/h/.config/pincer", "/h/.local/share/pincer", "/r/pincer"}},
		{"PINCER_HOME: no fallback", map[string]string{"TMPDIR": "/t", "PINCER_HOME": "/p"}, []string{"/p"}},
		{"PINCER_HOME is the fallback", map[string]string{"TMPDIR": "/t", "PINCER_HOME": fb}, []string{fb}},
	} {
		got := activePincerDirs(func(k string) string { return c.env[k] }, "/h")
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
