package e2e

// Issue 10, class 2: redirect targets (and path arguments) that are not normalised.
// `echo x > /dev/fd/../../../ANY/PATH` is a write to ANY/PATH; only the exact device
// files /dev/null, /dev/stdout and /dev/stderr are harmless. Default mode, no rules,
// headless: every form is refused. The targets are the workspace (always writable
// in the sandbox) and a temp directory outside it (also writable there), so a wrong
// allow shows as a marker.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func redirectForms() []attackForm {
	const up = "/dev/fd/../../.."
	return []attackForm{
		{Name: "devfd-dotdot-workspace", Cmd: `echo x > ` + up + `{P}`},
		{Name: "devfd-dotdot-outside", Cmd: `echo x > ` + up + `{P}`, Marker: "{O}/PROOF_{ID}"},
		{Name: "devfd-append", Cmd: `echo x >> ` + up + `{P}`},
		{Name: "devfd-clobber", Cmd: `echo x >| ` + up + `{P}`},
		{Name: "devfd-both", Cmd: `echo x &> ` + up + `{P}`},
		{Name: "devfd-stderr-fd", Cmd: `ls 2> ` + up + `{P}`},
		{Name: "devfd-readwrite", Cmd: `echo x 1<> ` + up + `{P}`},
		{Name: "devfd-quoted", Cmd: `echo x > "` + up + `{P}"`},
		{Name: "devfd-dot-segments", Cmd: `echo x > /dev/./fd/./../../..{P}`},
		{Name: "devfd-double-slash", Cmd: `echo x > /dev//fd//..//..//..{P}`},
		{Name: "dev-dotdot", Cmd: `echo x > /dev/..{P}`},
		{Name: "devshm-dotdot", Cmd: `echo x > /dev/shm/../..{P}`, Marker: "{O}/PROOF_{ID}"},
		{Name: "devnull-dotdot", Cmd: `echo x > /dev/null/../..{P}`},
		{Name: "devstdout-dotdot", Cmd: `echo x > /dev/stdout/../../..{P}`},
		{Name: "devstderr-dotdot", Cmd: `cat hello.txt > /dev/stderr/../../../..{P}`},
		{Name: "proc-self-cwd", Cmd: `echo x > /proc/self/cwd/PROOF_{ID}`},
		{Name: "proc-self-root", Cmd: `echo x > /proc/self/root{P}`},
		{Name: "proc-thread-self-cwd", Cmd: `echo x > /proc/thread-self/cwd/PROOF_{ID}`},
		{Name: "exec-fd-devfd", Cmd: `exec 3> ` + up + `{P}; echo x >&3`},
		{Name: "fd-dup-then-devfd", Cmd: `echo x 2>&1 > ` + up + `{P}`},
		{Name: "tee-devfd", Cmd: `echo x | tee ` + up + `{P}`},
		{Name: "tee-devnull-and-devfd", Cmd: `echo x | tee /dev/null ` + up + `{P}`},
		{Name: "workspace-dotdot-outside", Cmd: `echo x > {W}/{OREL}/PROOF_{ID}`, Marker: "{O}/PROOF_{ID}"},
		{Name: "relative-dotdot-outside", Cmd: `echo x > {OREL}/PROOF_{ID}`, Marker: "{O}/PROOF_{ID}"},
		{Name: "tilde-dotdot", Cmd: `echo x > ~{UPS}{P}`, Marker: "{O}/PROOF_{ID}"},
		{Name: "heredoc-to-devfd", Cmd: "cat > " + up + "{P} <<'EOF'\nx\nEOF"},
		{Name: "printf-devfd", Cmd: `printf x > ` + up + `{P}`},
		{Name: "subshell-redirect", Cmd: `(echo x) > ` + up + `{P}`},
		{Name: "group-redirect", Cmd: `{ echo x; } > ` + up + `{P}`},
	}
}

// TestAttackRedirectTargets: every disguised redirect is refused in default mode.
func TestAttackRedirectTargets(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	rel, err := filepath.Rel(a.repo, a.outside) // "../002": the two are sibling temp dirs
	if err != nil {
		t.Fatal(err)
	}
	home, _ := os.UserHomeDir()
	ups := "" // ~ then as many /.. as reach /
	for d := filepath.Clean(home); d != "/" && d != "."; d = filepath.Dir(d) {
		ups += "/.."
	}
	forms := redirectForms()
	for i := range forms {
		forms[i].Cmd = strings.NewReplacer("{OREL}", rel, "{UPS}", ups).Replace(forms[i].Cmd)
	}
	r := a.runForms("rd", forms)
	expectBlocked(t, r)
}

// TestAttackRedirectDevicesStayUsable: the exact device files need no approval.
func TestAttackRedirectDevicesStayUsable(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	r := a.runForms("dv", []attackForm{
		{Name: "devnull", Cmd: `echo x > /dev/null`},
		{Name: "devnull-stderr", Cmd: `ls 2>/dev/null`},
		{Name: "devnull-both", Cmd: `cat hello.txt &>/dev/null`},
		{Name: "devstderr", Cmd: `echo x > /dev/stderr`},
		{Name: "devstdout", Cmd: `echo x > /dev/stdout`},
		{Name: "dup-stderr", Cmd: `echo x >&2`},
		{Name: "dup-2to1", Cmd: `ls 2>&1`},
	})
	expectAllowed(t, r, nil)
}

// TestAttackPathArgsAcceptEdits: in acceptEdits, file operations (touch, cp, mv,
// mkdir, redirects) inside the workspace need no approval — so every path argument
// must be cleaned and resolved (.., /dev/fd/.., /proc/self/root, a symlink in the
// workspace pointing out) before deciding: these all reach outside and ask (a
// headless denial). The outside directory is a temp directory the sandbox may
// write, so a wrong allow shows as a marker.
func TestAttackPathArgsAcceptEdits(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	rel, err := filepath.Rel(a.repo, a.outside)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(a.outside, filepath.Join(a.repo, "outlink")); err != nil {
		t.Fatal(err)
	}
	const up = "/dev/fd/../../.."
	o := "{O}/PROOF_{ID}"
	forms := []attackForm{
		{Name: "touch-devfd", Cmd: `touch ` + up + o},
		{Name: "touch-dotdot", Cmd: `touch ` + rel + `/PROOF_{ID}`},
		{Name: "touch-workspace-dotdot", Cmd: `touch {W}/` + rel + `/PROOF_{ID}`},
		{Name: "touch-proc-root", Cmd: `touch /proc/self/root` + o},
		{Name: "touch-proc-cwd-dotdot", Cmd: `touch /proc/self/cwd/` + rel + `/PROOF_{ID}`},
		{Name: "touch-symlink", Cmd: `touch outlink/PROOF_{ID}`},
		{Name: "cp-devfd", Cmd: `cp hello.txt ` + up + o},
		{Name: "cp-symlink", Cmd: `cp hello.txt outlink/PROOF_{ID}`},
		{Name: "cp-into-symlink-dir", Cmd: `cp hello.txt outlink/ && mv outlink/hello.txt outlink/PROOF_{ID}`},
		{Name: "mv-symlink", Cmd: `cp hello.txt tmp_{ID} && mv tmp_{ID} outlink/PROOF_{ID}`},
		{Name: "mkdir-dotdot", Cmd: `mkdir ` + rel + `/PROOF_{ID}`},
		{Name: "mkdir-p-symlink", Cmd: `mkdir -p outlink/PROOF_{ID}/x`},
		{Name: "redirect-devfd", Cmd: `echo x > ` + up + o},
		{Name: "redirect-symlink", Cmd: `echo x > outlink/PROOF_{ID}`},
		{Name: "redirect-dotdot", Cmd: `echo x > ` + rel + `/PROOF_{ID}`},
		{Name: "rm-symlink-victim", Cmd: `rm outlink/victim_{ID}`, Victim: "{O}/victim_{ID}"},
		{Name: "rm-dotdot-victim", Cmd: `rm ` + rel + `/victim_{ID}`, Victim: "{O}/victim_{ID}"},
		{Name: "Write-symlink", Tool: "Write", Args: `{"file_path":"outlink/PROOF_{ID}","content":"x"}`},
		{Name: "Write-dotdot", Tool: "Write", Args: `{"file_path":"` + rel + `/PROOF_{ID}","content":"x"}`},
		{Name: "Write-devfd", Tool: "Write", Args: `{"file_path":"` + up + o + `","content":"x"}`},
		{Name: "Write-proc-root", Tool: "Write", Args: `{"file_path":"/proc/self/root` + o + `","content":"x"}`},
	}
	for i := range forms {
		if forms[i].Marker == "" {
			forms[i].Marker = o
		}
		if forms[i].Victim != "" {
			forms[i].Marker = "{O}/PROOF_none_{ID}"
		}
	}
	r := a.runForms("pa", forms, "--permission-mode", "acceptEdits")
	expectBlocked(t, r)
	// Control: the same operations inside the workspace need no approval, so the
	// refusals above come from the paths.
	ctl := a.runForms("pc", []attackForm{
		{Name: "control-touch", Cmd: `touch inside_{ID}`},
		{Name: "control-cp", Cmd: `cp hello.txt inside_{ID}`},
		{Name: "control-redirect", Cmd: `echo x > inside_{ID}`},
		{Name: "control-mkdir", Cmd: `mkdir -p inside_{ID}/x`},
		{Name: "control-Write", Tool: "Write", Args: `{"file_path":"inside_{ID}","content":"x"}`},
	}, "--permission-mode", "acceptEdits")
	t.Run("control", func(t *testing.T) {
		expectAllowed(t, ctl, func(t *testing.T, c *callResult) {
			if !exists(filepath.Join(a.repo, "inside_"+c.ID)) {
				t.Errorf("made nothing\n  %s", c.describe())
			}
		})
	})
}
