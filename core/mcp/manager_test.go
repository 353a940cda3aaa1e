package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/mcp"
	"pincer/core/mcp/mcptest"
	"pincer/tools"
)

// call runs the registry's tool name with input as the agent would.
func call(t *testing.T, reg *tools.Registry, env *tools.Env, name, input string) tools.Result {
	t.Helper()
	tl, ok := reg.Get(name)
	if !ok {
		t.Fatalf("no tool %s; have %v", name, reg.Names())
	}
	res, err := tl.Run(context.Background(), env, json.RawMessage(input))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func startManager(t *testing.T, opts mcp.Options, servers ...mcp.ServerConfig) *mcp.Manager {
	t.Helper()
	if opts.Registry == nil {
		opts.Registry = tools.NewRegistry()
	}
	if opts.LogDir == "" {
		opts.LogDir = t.TempDir()
	}
	m := mcp.NewManager(opts)
	t.Cleanup(func() { m.Close() })
	m.Start(context.Background(), servers)
	if !m.WaitReady(context.Background(), 30*time.Second) {
		t.Fatalf("servers did not settle: %+v", m.States())
	}
	for _, st := range m.States() {
		if st.Config.Approved && mcp.CheckServerName(st.Config.Name) == nil && st.Status != mcp.StatusReady {
			t.Fatalf("%s: %s %s", st.Config.Name, st.Status, st.Reason)
		}
	}
	return m
}

func TestEverythingAndFilesystem(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "note.txt"), []byte("marker-1234\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry()
	m := startManager(t, mcp.Options{Registry: reg}, mcptest.Everything(t, "everything"), mcptest.Filesystem(t, "filesystem", root))

	if got := call(t, reg, nil, "mcp__everything__echo", `{"message":"hi there"}`); got.IsError || !strings.Contains(got.Output, "hi there") {
		t.Errorf("echo: %+v", got)
	}
	if got := call(t, reg, nil, "mcp__everything__get-sum", `{"a":2,"b":40}`); !strings.Contains(got.Output, "42") {
		t.Errorf("get-sum: %+v", got)
	}
	if got := call(t, reg, nil, "mcp__filesystem__read_text_file", `{"path":"`+filepath.Join(root, "note.txt")+`"}`); !strings.Contains(got.Output, "marker-1234") {
		t.Errorf("read_text_file: %+v", got)
	}
	if got := call(t, reg, nil, "mcp__filesystem__list_directory", `{"path":"`+root+`"}`); !strings.Contains(got.Output, "note.txt") {
		t.Errorf("list_directory: %+v", got)
	}
	if got := call(t, reg, nil, "mcp__everything__get-tiny-image", `{}`); !strings.Contains(got.Output, "[image: image/png, ") {
		t.Errorf("get-tiny-image: %+v", got)
	}
	if got := call(t, reg, nil, "mcp__filesystem__read_text_file", `{"path":"/etc/passwd"}`); !got.IsError {
		t.Errorf("a read outside the server's root should be an error result: %+v", got)
	}

	tl, _ := reg.Get("mcp__everything__echo")
	spec := tl.Spec()
	if spec.Origin != "mcp:everything" || spec.Kind != tools.KindExecute || spec.Defer != tools.DeferAuto {
		t.Errorf("spec: %+v", spec)
	}
	st, _ := m.State("everything")
	if len(st.Prompts) == 0 || len(st.Resources) == 0 || st.Instructions == "" {
		t.Errorf("everything lists prompts, resources and instructions: %+v", st)
	}
	if !strings.Contains(m.Instructions(), "## everything\n") || !strings.Contains(m.Instructions(), "## filesystem\n") {
		t.Errorf("instructions segment: %q", m.Instructions())
	}
	if text, err := m.GetPrompt(context.Background(), "everything", st.Prompts[0].Name, promptArgs(st.Prompts[0])); err != nil || text == "" {
		t.Errorf("GetPrompt %s: %q %v", st.Prompts[0].Name, text, err)
	}
}

func promptArgs(p mcp.PromptInfo) map[string]string {
	args := map[string]string{}
	for _, a := range p.Arguments {
		if a.Required {
			args[a.Name] = "x"
		}
	}
	return args
}

// A result over 25,000 tokens is spilled to a file the model can read.
func TestLongResultSpills(t *testing.T) {
	reg := tools.NewRegistry()
	startManager(t, mcp.Options{Registry: reg}, mcptest.Everything(t, "everything"))
	long := strings.Repeat("abcdefghij", 11000) // 110,000 characters > 100,000
	spill := t.TempDir()
	got := call(t, reg, &tools.Env{SpillDir: spill, ToolCallID: "call_1"}, "mcp__everything__echo", `{"message":"`+long+`"}`)
	if len(got.Output) > 100000 || !strings.Contains(got.Output, filepath.Join(spill, "call_1.txt")) {
		t.Fatalf("not spilled: %d characters: %.200s", len(got.Output), got.Output)
	}
	b, err := os.ReadFile(filepath.Join(spill, "call_1.txt"))
	if err != nil || !strings.Contains(string(b), long) {
		t.Fatalf("spill file: %v (%d bytes)", err, len(b))
	}
	short := call(t, reg, &tools.Env{SpillDir: spill, ToolCallID: "call_2"}, "mcp__everything__echo", `{"message":"short"}`)
	if _, err := os.Stat(filepath.Join(spill, "call_2.txt")); err == nil || strings.Contains(short.Output, "full output") {
		t.Errorf("a short result was spilled: %q", short.Output)
	}
}

// The server's environment is the sandbox allowlist and the entry's env:
// pincer's provider keys never reach it.
func TestServerEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-secret-provider-key")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-secret")
	cfg := mcptest.Everything(t, "everything")
	cfg.Env = map[string]string{"PINCER_MCP_MARKER": "entry-env-value"}
	reg := tools.NewRegistry()
	startManager(t, mcp.Options{Registry: reg}, cfg)
	got := call(t, reg, nil, "mcp__everything__get-env", `{}`)
	if strings.Contains(got.Output, "sk-secret-provider-key") || strings.Contains(got.Output, "sk-ant-secret") {
		t.Errorf("a provider key reached the server: %.300s", got.Output)
	}
	if !strings.Contains(got.Output, "entry-env-value") || !strings.Contains(got.Output, "PATH") {
		t.Errorf("the entry's env or PATH is missing: %.300s", got.Output)
	}
}

func TestStderrLog(t *testing.T) {
	logs := t.TempDir()
	startManager(t, mcp.Options{LogDir: logs}, mcptest.Everything(t, "everything"))
	fi, err := os.Stat(filepath.Join(logs, "everything.log"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("log: %v %v", fi, err)
	}
}

func TestUnapprovedAndBadNames(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "started")
	reg := tools.NewRegistry()
	m := startManager(t, mcp.Options{Registry: reg},
		mcp.ServerConfig{Name: "proj", Command: "sh", Args: []string{"-c", "touch " + marker}, Scope: mcp.ScopeProject},
		mcp.ServerConfig{Name: "a__b", Command: "sh", Args: []string{"-c", "touch " + marker}, Approved: true},
	)
	time.Sleep(200 * time.Millisecond)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("an unapproved or badly named server was started")
	}
	states := m.States()
	if states[0].Config.Name != "a__b" || states[0].Status != mcp.StatusFailed || !strings.Contains(states[0].Reason, `"__"`) {
		t.Errorf("a__b: %+v", states[0])
	}
	if states[1].Status != mcp.StatusNeedsApproval || !strings.Contains(states[1].Reason, "sh -c touch") {
		t.Errorf("proj: %+v", states[1])
	}
}

// The log is never written through a symlink planted at its name, and a log
// grown past 4 MiB starts afresh.
func TestLogFileSafety(t *testing.T) {
	logs, elsewhere := t.TempDir(), filepath.Join(t.TempDir(), "target")
	if err := os.WriteFile(elsewhere, []byte("untouched"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(logs, "everything.log")); err != nil {
		t.Fatal(err)
	}
	startManager(t, mcp.Options{LogDir: logs}, mcptest.Everything(t, "everything"))
	if b, _ := os.ReadFile(elsewhere); string(b) != "untouched" {
		t.Errorf("the log was written through a symlink: %q", b)
	}
	big := t.TempDir()
	if err := os.WriteFile(filepath.Join(big, "everything.log"), make([]byte, 5<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	startManager(t, mcp.Options{LogDir: big}, mcptest.Everything(t, "everything"))
	if fi, err := os.Stat(filepath.Join(big, "everything.log")); err != nil || fi.Size() > 1<<20 {
		t.Errorf("the big log was not started afresh: %v %v", fi.Size(), err)
	}
}

// TestServerPackageCaches (red team r24b F2): with a CacheDir, a stdio
// server's npm, uv, pip, Go and XDG caches are under it, not the person's
// (which sandboxed commands write); an entry's own setting wins.
func TestServerPackageCaches(t *testing.T) {
	cacheDir := t.TempDir()
	cfg := mcptest.Everything(t, "everything")
	cfg.Env = map[string]string{"UV_CACHE_DIR": "/entry/uv"}
	reg := tools.NewRegistry()
	startManager(t, mcp.Options{Registry: reg, CacheDir: cacheDir}, cfg)
	got := call(t, reg, nil, "mcp__everything__get-env", `{}`).Output
	for _, want := range []string{filepath.Join(cacheDir, "npm"), filepath.Join(cacheDir, "xdg"), filepath.Join(cacheDir, "gomod"), "/entry/uv"} {
		if !strings.Contains(got, want) {
			t.Errorf("the server's environment lacks %s: %.600s", want, got)
		}
	}
	if strings.Contains(got, filepath.Join(cacheDir, "uv")) {
		t.Errorf("the entry's UV_CACHE_DIR was replaced: %.600s", got)
	}
}
