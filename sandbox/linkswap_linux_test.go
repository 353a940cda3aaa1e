package sandbox

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// linkSwapScene is where one link-swap attack runs: a stand-in pincer
// process (parentMain) whose toolchain caches, TMPDIR and PATH lie in
// directories of the test's own, never the person's ~/.cache.
type linkSwapScene struct {
	base    string // under $HOME: outside every tree commands may write
	out     string // base/outside: what the attack wants to reach
	secret  string // out/SECRET's content
	ws      string // the workspace (under the temp dir)
	tmpdir  string // the stand-in's TMPDIR (under the temp dir)
	cache   string // XDG_CACHE_HOME
	env     []string
	literal *strings.Replacer
}

func newLinkSwapScene(t *testing.T, ws string) *linkSwapScene {
	t.Helper()
	base, err := os.MkdirTemp(homeOutsideTemp(t), ".pincer-linkswap-")
	if err != nil {
		t.Skipf("no directory outside the temp dir: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	s := &linkSwapScene{base: base, out: filepath.Join(base, "outside"), secret: randName("secret-"),
		ws: ws, tmpdir: filepath.Join(t.TempDir(), "t", "tmpdir"), cache: filepath.Join(base, "cache")}
	for _, d := range []string{s.out, s.ws, s.tmpdir, filepath.Join(s.cache, "go-build"), filepath.Join(s.cache, "gomod"), filepath.Join(s.cache, "npm"), filepath.Join(s.ws, ".venv", "bin"), filepath.Join(s.tmpdir, "..", "wr")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(s.out, "SECRET"), []byte(s.secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.ws, "excl"), []byte("*.log\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.env = append(os.Environ(),
		"XDG_CACHE_HOME="+s.cache,
		"GOCACHE="+filepath.Join(s.cache, "go-build"),
		"GOMODCACHE="+filepath.Join(s.cache, "gomod"),
		"npm_config_cache="+filepath.Join(s.cache, "npm"),
		"PIP_CACHE_DIR=",
		"CARGO_HOME="+filepath.Join(base, "no-cargo"),
		"TMPDIR="+s.tmpdir,
		"PINCER_HOME="+filepath.Join(base, "pincer-home"), // no run dir (a mount) in TMPDIR
		"PATH="+filepath.Join(s.ws, ".venv", "bin")+string(filepath.ListSeparator)+os.Getenv("PATH"),
	)
	s.literal = strings.NewReplacer("{OUT}", s.out, "{W}", s.ws, "{TMPDIR}", s.tmpdir, "{TP}", filepath.Dir(s.tmpdir),
		"{GOCACHE}", filepath.Join(s.cache, "go-build"), "{GOMODCACHE}", filepath.Join(s.cache, "gomod"),
		"{NPM}", filepath.Join(s.cache, "npm"))
	return s
}

// run starts the stand-in pincer in the workspace with scripts (one, or two
// run one after the other under one Executor) and extra environment, and
// returns its output and exit code.
func (s *linkSwapScene) run(t *testing.T, extra []string, scripts ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(s.env, extra...), "PINCER_SANDBOX_TEST_PARENT="+s.ws, "PINCER_SANDBOX_TEST_SCRIPT="+s.literal.Replace(scripts[0]))
	if len(scripts) > 1 {
		cmd.Env = append(cmd.Env, "PINCER_SANDBOX_TEST_SCRIPT2="+s.literal.Replace(scripts[1]))
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

// linkSwapForms are the attacks of red team r23 C1, C2, C4 and C7: a command
// the person allowed replaces a path the sandbox takes from the environment
// (a cache, TMPDIR, a writable root, a PATH directory, a git excludes file)
// with a symlink to {OUT}; the next command (in the same pincer process, or
// in the next one) writes or reads through it. Each form's exploit works
// without the swap on the real path (control), and must not reach {OUT}.
var linkSwapForms = []struct {
	name     string
	env      []string // extra environment of the stand-in pincer
	swap     string
	exploit  string // writes PROOF or prints SECRET through the swapped path
	read     bool   // the exploit reads {OUT}/SECRET (else it writes {OUT}/PROOF)
	control  string // where the exploit writes without the swap
	oneShell bool   // only within one process
}{
	{name: "GOCACHE to a link", swap: `rm -rf {GOCACHE} && ln -s {OUT} {GOCACHE}`, exploit: `touch {GOCACHE}/PROOF`, control: "{GOCACHE}/PROOF"},
	{name: "GOCACHE's entries moved, then a link", swap: `mv {GOCACHE} {GOCACHE}.old && ln -s {OUT} {GOCACHE}`, exploit: `echo x > {GOCACHE}/PROOF`, control: "{GOCACHE}/PROOF"},
	{name: "GOMODCACHE to a relative link", swap: `cd $(dirname {GOMODCACHE}) && rm -rf gomod && ln -s "$(realpath --relative-to=. {OUT})" gomod`, exploit: `mkdir {GOMODCACHE}/PROOF`, control: "{GOMODCACHE}/PROOF"},
	{name: "npm cache to a link", swap: `rm -rf {NPM} && ln -s {OUT} {NPM}`, exploit: `cp /etc/hostname {NPM}/PROOF`, control: "{NPM}/PROOF"},
	{name: "TMPDIR to a link", swap: `mv {TMPDIR} {TMPDIR}.old && ln -s {OUT} {TMPDIR}`, exploit: `touch {TMPDIR}/PROOF`, control: "{TMPDIR}/PROOF"},
	{name: "TMPDIR to a chain of links", swap: `rm -rf {TMPDIR} && ln -s {TMPDIR}.hop {TMPDIR} && ln -s {OUT} {TMPDIR}.hop`, exploit: `touch {TMPDIR}/PROOF`, control: "{TMPDIR}/PROOF"},
	{name: "TMPDIR's parent moved, TMPDIR a link", swap: `cd / && mv {TP} {TP}.old && mkdir {TP} && ln -s {OUT} {TMPDIR}`,
		exploit: `touch {TMPDIR}/PROOF`, control: "{TMPDIR}/PROOF"},
	{name: "a writable root in /tmp to a link", env: []string{"PINCER_SANDBOX_TEST_WRITABLE={TMPDIR}/../wr"},
		swap: `mkdir -p {TMPDIR}/../wr && mv {TMPDIR}/../wr {TMPDIR}/../wr.old && ln -s {OUT} {TMPDIR}/../wr`, exploit: `touch {TMPDIR}/../wr/PROOF`, control: "{TMPDIR}/../wr/PROOF"},
	{name: "GOCACHE to a link, read", env: []string{"PINCER_SANDBOX_TEST_CONFINE=1"}, read: true,
		swap: `rm -rf {GOCACHE} && ln -s {OUT} {GOCACHE}`, exploit: `cat {GOCACHE}/SECRET`},
	{name: "a PATH directory in the workspace to a link", env: []string{"PINCER_SANDBOX_TEST_CONFINE=1"}, read: true,
		swap: `rm -rf .venv/bin && ln -s {OUT} .venv/bin`, exploit: `cat .venv/bin/SECRET`},
	{name: "a PATH directory's parent to a link", env: []string{"PINCER_SANDBOX_TEST_CONFINE=1"}, read: true,
		swap: `mv .venv .venv.old && mkdir -p {W}/../x && ln -s {OUT} {W}/../x/bin && ln -s {W}/../x .venv`, exploit: `cat .venv/bin/SECRET`},
	{name: "a git excludes file in the workspace to a link", env: []string{"PINCER_SANDBOX_TEST_CONFINE=1", "PINCER_SANDBOX_TEST_GITREADS={W}/excl"}, read: true,
		swap: `rm excl && ln -s {OUT}/SECRET excl`, exploit: `cat excl`},
}

// TestAttackLinkSwappedPaths: each of linkSwapForms, in one process and
// across two, reaches nothing outside; without the swap each exploit works
// on the real path (so a form that cannot work proves nothing).
func TestAttackLinkSwappedPaths(t *testing.T) {
	for _, f := range linkSwapForms {
		t.Run(f.name, func(t *testing.T) {
			if f.control != "" {
				s := newLinkSwapScene(t, filepath.Join(t.TempDir(), "ws"))
				extra := expandAll(s, f.env)
				if out, code := s.run(t, extra, f.exploit); code != 0 {
					t.Fatalf("control: the exploit fails without the swap (exit %d): %s", code, out)
				}
				mustExist(t, s.literal.Replace(f.control))
			}
			for _, mode := range []string{"one process", "two processes"} {
				s := newLinkSwapScene(t, filepath.Join(t.TempDir(), "ws"))
				extra := expandAll(s, f.env)
				var out string
				var code int
				if mode == "one process" {
					out, code = s.run(t, extra, f.swap, f.exploit)
				} else {
					if o, c := s.run(t, extra, f.swap); c != 0 {
						t.Fatalf("the swap failed (exit %d): %s", c, o)
					}
					out, code = s.run(t, extra, f.exploit)
				}
				if f.read && strings.Contains(out, s.secret) {
					t.Errorf("%s: the exploit read %s/SECRET (exit %d): %s", mode, s.out, code, out)
				}
				if !f.read {
					if _, err := os.Lstat(filepath.Join(s.out, "PROOF")); err == nil {
						t.Errorf("%s: the exploit wrote %s/PROOF (exit %d): %s", mode, s.out, code, out)
					}
				}
			}
		})
	}
}

// TestAttackWorkspaceParentSwapped (red team r23 C3b): a workspace under
// /tmp whose parent a command renames and replaces with a link to a
// directory outside is refused by the next command of the same pincer, not
// followed (its writes would land outside).
func TestAttackWorkspaceParentSwapped(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "p")
	s := newLinkSwapScene(t, filepath.Join(parent, "ws"))
	if err := os.MkdirAll(filepath.Join(s.out, "ws"), 0o755); err != nil {
		t.Fatal(err)
	}
	swap := "cd / && mv " + parent + " " + parent + ".old && ln -s {OUT} " + parent
	out, code := s.run(t, nil, swap, `touch PROOF; touch {W}/PROOF2`)
	for _, p := range []string{"PROOF", "PROOF2"} {
		if _, err := os.Lstat(filepath.Join(s.out, "ws", p)); err == nil {
			t.Errorf("the second command wrote %s outside (exit %d): %s", p, code, out)
		}
	}
	if code != 4 || !strings.Contains(out, "symlink") {
		t.Errorf("the second command was not refused for the link (exit %d): %s", code, out)
	}
}

// expandAll replaces the scene's placeholders in each of env.
func expandAll(s *linkSwapScene, env []string) []string {
	var out []string
	for _, e := range env {
		out = append(out, s.literal.Replace(e))
	}
	return out
}

// TestHelperRefusesALinkInAPlannedPath: a writable tree or a read rule the
// Executor planned symlink-free that holds a symlink by the time the helper
// starts (a background command swapped it) makes the helper refuse before it
// runs anything: mounts and Landlock would follow the link.
func TestHelperRefusesALinkInAPlannedPath(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.MkdirAll(filepath.Join(dir, "elsewhere", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "elsewhere"), real); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(dir, "RAN")
	for _, spec := range []helperSpec{
		{Trees: []treeSpec{{Path: filepath.Join(real, "sub")}}},
		{Trees: []treeSpec{{Path: real}}},
		{ConfineReads: true, ReadDirs: []string{"/usr", filepath.Join(real, "sub")}},
		{ConfineReads: true, ReadFiles: []string{real}},
	} {
		args, err := helperArgs(spec, []string{"touch", marker})
		if err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(os.Args[0], append([]string{HelperCommand}, args...)...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), real+" became a symlink") {
			t.Errorf("%+v: the helper ran (%v): %s", spec, err, out)
		}
		if _, err := os.Lstat(marker); err == nil {
			t.Fatalf("%+v: the command ran", spec)
		}
	}
}

// TestPathGuardResolve: links in directories no command writes are
// followed; one in a writable tree, however reached, is not.
func TestPathGuardResolve(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	w := filepath.Join(dir, "w")     // a writable tree
	ro := filepath.Join(dir, "ro")   // the person's, not writable
	out := filepath.Join(dir, "out") // a target
	for _, d := range []string{w, ro, out, filepath.Join(w, "d")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, at string) {
		if err := os.Symlink(target, at); err != nil {
			t.Fatal(err)
		}
	}
	link(out, filepath.Join(ro, "to-out"))
	link(out, filepath.Join(w, "to-out"))
	link(filepath.Join(w, "to-out"), filepath.Join(ro, "via-w"))
	link("../out", filepath.Join(w, "d", "rel"))
	link(filepath.Join(w, "d"), filepath.Join(ro, "to-w-d"))
	g := newPathGuard([]string{w, filepath.Join(dir, "missing")})
	for _, c := range []struct {
		path, want string // want "" for an error
	}{
		{w, w},
		{filepath.Join(w, "d"), filepath.Join(w, "d")},
		{filepath.Join(ro, "to-out"), out},                   // the person's link
		{filepath.Join(ro, "to-w-d"), filepath.Join(w, "d")}, // the person's link into the tree
		{filepath.Join(w, "to-out"), ""},                     // a link in the tree
		{filepath.Join(ro, "via-w"), ""},                     // the person's link to a link in the tree
		{filepath.Join(ro, "to-w-d", "rel"), ""},             // a relative link in the tree, reached through the person's
		{filepath.Join(w, "nothing"), ""},                    // missing
		{"relative/path", ""},
	} {
		got, err := g.resolve(c.path)
		if c.want == "" && err == nil {
			t.Errorf("resolve(%s) = %s, want an error", c.path, got)
		}
		if c.want != "" && (err != nil || got != c.want) {
			t.Errorf("resolve(%s) = %q, %v; want %s", c.path, got, err, c.want)
		}
	}
}

// TestAttackLinkSwapRace (red team r24 F2): while GOCACHE and a link to
// {OUT} trade places in a loop (renameat2 RENAME_EXCHANGE, as a background
// shell can: GOCACHE's parent is writable), commands of fresh pincer
// processes touch files through GOCACHE. Whichever they see when their rules
// are made, nothing lands in {OUT}: a link met then refuses the command, and
// a rule made on the directory covers that directory only.
func TestAttackLinkSwapRace(t *testing.T) {
	s := newLinkSwapScene(t, filepath.Join(t.TempDir(), "ws"))
	gocache := filepath.Join(s.cache, "go-build")
	other := gocache + ".x"
	if err := os.Symlink(s.out, other); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	swapped := make(chan int)
	go func() {
		n := 0
		for {
			select {
			case <-stop:
				swapped <- n
				return
			default:
			}
			if unix.Renameat2(unix.AT_FDCWD, gocache, unix.AT_FDCWD, other, unix.RENAME_EXCHANGE) == nil {
				n++
			}
		}
	}()
	touch := `for i in $(seq 300); do touch {GOCACHE}/PROOF_$$_$i 2>/dev/null; done; true`
	for i := 0; i < 15; i++ {
		s.run(t, nil, touch)
	}
	close(stop)
	n := <-swapped
	entries, _ := os.ReadDir(s.out)
	var proofs []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "PROOF_") {
			proofs = append(proofs, e.Name())
		}
	}
	if len(proofs) > 0 {
		t.Errorf("%d files written in %s through the swapped GOCACHE (%d swaps), e.g. %s", len(proofs), s.out, n, proofs[0])
	}
	t.Logf("%d swaps during 15 commands", n)
}

// TestAttackOtherWorkspaceLinkFollowed (red team r24 F3): a PATH directory
// in the parent session's workspace, replaced by the parent's command with a
// link outside, is not followed by the confined reads of another workspace's
// Executor in the same process (a worktree subagent's), which does not have
// the parent's workspace among its trees.
func TestAttackOtherWorkspaceLinkFollowed(t *testing.T) {
	base, err := os.MkdirTemp(homeOutsideTemp(t), ".pincer-linkswap-")
	if err != nil {
		t.Skipf("no directory outside the temp dir: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	parent, child, out := filepath.Join(base, "parent"), filepath.Join(base, "child"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(parent, ".venv"), child, out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	secret := randName("secret-")
	if err := os.WriteFile(filepath.Join(out, "SECRET"), []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := NewWorkspace(parent); err != nil { // the parent session's, whose commands write there
		t.Fatal(err)
	}
	if err := os.Symlink(out, filepath.Join(parent, ".venv", "bin")); err != nil { // what its command made
		t.Fatal(err)
	}
	t.Setenv("PATH", filepath.Join(parent, ".venv", "bin")+string(filepath.ListSeparator)+os.Getenv("PATH"))
	ws, err := NewWorkspace(child)
	if err != nil {
		t.Fatal(err)
	}
	pol := DefaultPolicy()
	pol.ConfineReads = true
	e := &Executor{Policy: pol, Workspace: ws}
	if err := e.CanConfineReads(); err != nil {
		t.Skip(err)
	}
	res := sh(t, e, "cat "+filepath.Join(parent, ".venv", "bin", "SECRET")+"; cat "+filepath.Join(out, "SECRET"))
	if strings.Contains(res.Output, secret) {
		t.Errorf("the other workspace's link was followed: the command read %s/SECRET: %s", out, res.Output)
	}
}
