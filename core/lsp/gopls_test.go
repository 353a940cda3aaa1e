package lsp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// goplsPath finds a real gopls (PATH, then GOPATH/bin); the test is skipped
// without one unless PINCER_REQUIRE_GOPLS=1 (.ci/run installs it).
func goplsPath(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("gopls"); err == nil {
		return p
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		p := filepath.Join(strings.TrimSpace(string(out)), "bin", "gopls")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv("PINCER_REQUIRE_GOPLS") == "1" {
		t.Fatal("gopls not found and PINCER_REQUIRE_GOPLS=1")
	}
	t.Skip("gopls not installed")
	return ""
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

const goodMain = "package main\n\nfunc main() {\n\tvar n int = 1\n\tprintln(n)\n}\n"
const badMain = "package main\n\nfunc main() {\n\tvar n int = \"one\"\n\tprintln(n)\n}\n"

// TestGoplsDiagnosticsAfterEdit: a real gopls reports the type error an edit
// introduces in the changed file, the text names file:line:col, a fixing
// edit clears it, and Close leaves no gopls behind.
func TestGoplsDiagnosticsAfterEdit(t *testing.T) {
	gopls := goplsPath(t)
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "go.mod"), "module example.com/m\n\ngo 1.22\n")
	main := filepath.Join(root, "main.go")
	writeFile(t, main, goodMain)
	var warned []string
	m := New(Options{Root: root, Wait: 60 * time.Second, Warn: func(s string) { warned = append(warned, s) },
		Servers: []Server{{Name: "gopls", Command: gopls, Extensions: map[string]string{".go": "go"}}}})
	defer m.Close()
	ctx := context.Background()

	m.TurnStarted("s1")
	writeFile(t, main, badMain)
	m.FilesChanged(ctx, "s1", []string{main})
	text := m.Text("s1")
	if !strings.Contains(text, "main.go:4:") || !strings.Contains(text, "error:") || !strings.Contains(text, "string") {
		t.Fatalf("want the type error of main.go:4, got %q (warnings %v)", text, warned)
	}
	if m.Text("other") != "" {
		t.Errorf("another session sees this session's diagnostics")
	}

	writeFile(t, main, goodMain)
	m.FilesChanged(ctx, "s1", []string{main})
	if text := m.Text("s1"); text != "" {
		t.Fatalf("after the fix the diagnostics remain: %q", text)
	}

	// A new turn shows nothing of the last one's files.
	writeFile(t, main, badMain)
	m.FilesChanged(ctx, "s1", []string{main})
	if m.Text("s1") == "" {
		t.Fatal("the error came back but is not shown")
	}
	m.TurnStarted("s1")
	if text := m.Text("s1"); text != "" {
		t.Fatalf("a new turn carries the last turn's files: %q", text)
	}

	pids := m.Pids()
	if len(pids) != 1 {
		t.Fatalf("want one server, got pids %v", pids)
	}
	m.Close()
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(pids[0], 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("gopls (pid %d) still runs after Close", pids[0])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestGoplsToolchainLineFetchesNothing: a go.mod whose toolchain line asks
// for a Go this machine lacks makes `go` (with its default GOTOOLCHAIN=auto)
// ask the module proxy for that toolchain; gopls under the Manager
// (GOTOOLCHAIN=local) asks it for nothing, downloads and runs nothing.
func TestGoplsToolchainLineFetchesNothing(t *testing.T) {
	gopls := goplsPath(t)
	var hits atomic.Int64
	var paths atomic.Value
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		paths.Store(r.URL.Path)
		http.NotFound(w, r)
	}))
	defer proxy.Close()
	root := t.TempDir()
	modcache := t.TempDir()
	writeFile(t, filepath.Join(root, "go.mod"), "module example.com/m\n\ngo 1.99\n\ntoolchain go1.99.1\n")
	main := filepath.Join(root, "main.go")
	writeFile(t, main, goodMain)
	// The go command's own config says auto (the upstream default; this
	// machine's GOROOT/go.env may say local): only the server's environment
	// holds the switch off.
	goenv := filepath.Join(t.TempDir(), "goenv")
	writeFile(t, goenv, "GOTOOLCHAIN=auto\n")
	env := []string{"GOPROXY=" + proxy.URL, "GOMODCACHE=" + modcache, "GOSUMDB=off", "GOENV=" + goenv}

	// The control: plain go with GOTOOLCHAIN=auto goes to the proxy.
	cmd := exec.Command("go", "list", "./...")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOPROXY="+proxy.URL, "GOMODCACHE="+t.TempDir(), "GOSUMDB=off", "GOENV="+goenv, "GOTOOLCHAIN=")
	_ = cmd.Run()
	if hits.Load() == 0 {
		t.Fatal("control: go with GOTOOLCHAIN=auto did not ask the proxy; the test cannot tell")
	}
	hits.Store(0)

	m := New(Options{Root: root, Wait: 30 * time.Second,
		Servers: []Server{{Name: "gopls", Command: gopls, Extensions: map[string]string{".go": "go"}, Env: env}}})
	m.TurnStarted("s")
	writeFile(t, main, badMain)
	m.FilesChanged(context.Background(), "s", []string{main})
	m.Close()
	if n := hits.Load(); n != 0 {
		t.Fatalf("gopls made the go command fetch from the proxy %d times (last %v)", n, paths.Load())
	}
	entries, _ := os.ReadDir(modcache)
	if len(entries) > 0 {
		t.Fatalf("something was downloaded into the module cache: %v", fmt.Sprint(entries))
	}
}
