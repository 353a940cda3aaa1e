package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// goplsDir is the directory of a real gopls (PATH, then GOPATH/bin); the test
// is skipped without one unless PINCER_REQUIRE_GOPLS=1 (.ci/run installs it).
func goplsDir(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("gopls"); err == nil {
		return filepath.Dir(p)
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		dir := filepath.Join(strings.TrimSpace(string(out)), "bin")
		if _, err := os.Stat(filepath.Join(dir, "gopls")); err == nil {
			return dir
		}
	}
	if os.Getenv("PINCER_REQUIRE_GOPLS") == "1" {
		t.Fatal("gopls not found and PINCER_REQUIRE_GOPLS=1")
	}
	t.Skip("gopls not installed")
	return ""
}

// goplsRunning lists the gopls processes whose working directory is dir.
func goplsRunning(dir string) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		cmd, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(cmd), "gopls") {
			continue
		}
		if cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd")); err == nil && cwd == dir {
			out = append(out, e.Name()+" "+strings.ReplaceAll(string(cmd), "\x00", " "))
		}
	}
	return out
}

// TestLSPDiagnosticsInPrompt: in a Go module, an Edit that introduces a type
// error puts gopls's diagnostic (file:line:col) into the next model request's
// system prompt; after a fixing Edit the next request has none; no gopls
// outlives `pincer run`.
func TestLSPDiagnosticsInPrompt(t *testing.T) {
	dir := goplsDir(t)
	e := newEnv(t)
	e.write("go.mod", "module example.com/m\n\ngo 1.22\n")
	e.write("main.go", "package main\n\nfunc main() {\n\tvar n int = 1\n\tprintln(n)\n}\n")
	if err := os.WriteFile(filepath.Join(e.home, "config.toml"), []byte("[lsp]\nwait_ms = 30000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mainGo := filepath.Join(e.repo, "main.go")
	edit := func(id, from, to string) openaitest.Reply {
		args, _ := json.Marshal(map[string]string{"file_path": mainGo, "old_string": from, "new_string": to})
		return openaitest.Reply{ToolCalls: []openaitest.Call{{ID: id, Name: "Edit", Args: string(args)}}}
	}
	read, _ := json.Marshal(map[string]string{"file_path": mainGo})
	e.fake.Push(
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "r1", Name: "Read", Args: string(read)}}},
		edit("e1", "var n int = 1", `var n int = "one"`),
		edit("e2", `var n int = "one"`, "var n int = 2"),
		openaitest.Reply{Text: "fixed"},
	)
	cmd := e.command(e.runArgs("--permission-mode", "acceptEdits", "change main.go")...)
	cmd.Env = append(cmd.Env, "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "fixed") {
		t.Fatalf("pincer run: %v\n%s", err, out)
	}
	reqs := e.fake.Requests()
	if len(reqs) != 4 {
		t.Fatalf("want 4 model requests, got %d", len(reqs))
	}
	system := func(i int) string {
		msgs, _ := reqs[i]["messages"].([]any)
		var b strings.Builder
		for _, m := range msgs {
			if mm, _ := m.(map[string]any); mm["role"] == "system" {
				s, _ := json.Marshal(mm["content"])
				b.Write(s)
			}
		}
		return b.String()
	}
	if s := system(1); strings.Contains(s, "# Diagnostics") {
		t.Errorf("diagnostics before any edit: %s", s)
	}
	if s := system(2); !strings.Contains(s, "# Diagnostics") || !strings.Contains(s, "main.go:4:") || !strings.Contains(s, "error:") {
		t.Fatalf("the request after the breaking Edit has no diagnostic of main.go:4; system prompt:\n%s", s)
	}
	if s := system(3); strings.Contains(s, "# Diagnostics") {
		t.Fatalf("the request after the fixing Edit still has diagnostics:\n%s", s)
	}
	deadline := time.Now().Add(5 * time.Second)
	for left := goplsRunning(e.repo); len(left) > 0; left = goplsRunning(e.repo) {
		if time.Now().After(deadline) {
			t.Fatalf("gopls outlived pincer run: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
