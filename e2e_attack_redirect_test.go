package main

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
