package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"pincer/sandbox"
)

// newTestEnv returns an Env over a fresh temporary workspace and its root.
// The warm helpers are stopped before the workspace is removed: one
// pre-started for a next command creates the absent protected paths in it
// (an empty .pincer, .claude, ...), which raced the removal ("directory not
// empty", TestBashBinaryOutput under load).
func newTestEnv(t testing.TB) (*Env, string) {
	t.Helper()
	ws, err := sandbox.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sandbox.StopWarm) // runs before the TempDir's removal (cleanups run last first)
	return &Env{Workspace: ws, Files: NewFileState(), SessionID: "s1", ToolCallID: "c1"}, ws.Root()
}

// mustJSON marshals v (a map or an input struct) into a tool input.
func mustJSON(t testing.TB, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// runTool runs tool, through the Typed adapter as the agent does, with input v
// (a map or an input struct) encoded as JSON.
func runTool[In any](t testing.TB, tool TypedTool[In], env *Env, v any) (Result, error) {
	t.Helper()
	return Typed(tool).Run(context.Background(), env, mustJSON(t, v))
}

// callTool runs tool (a Tool, as the agent holds it) with input v encoded as JSON.
func callTool(t testing.TB, tool Tool, env *Env, v any) (Result, error) {
	t.Helper()
	return tool.Run(context.Background(), env, mustJSON(t, v))
}

// writeFile writes content to root/rel, creating directories.
func writeTestFile(t testing.TB, root, rel, content string) string {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// readTestFile returns the content of root/rel.
func readTestFile(t testing.TB, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// setMtime sets the modification time of root/rel to base plus offset seconds.
func setMtime(t testing.TB, root, rel string, offset int) {
	t.Helper()
	tm := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(offset) * time.Second)
	if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(rel)), tm, tm); err != nil {
		t.Fatal(err)
	}
}

// readFirst runs Read on rel so that Write and Edit accept changes to it.
func readFirst(t testing.TB, env *Env, rel string) {
	t.Helper()
	if _, err := runTool(t, Read{}, env, ReadInput{FilePath: rel}); err != nil {
		t.Fatalf("Read %s: %v", rel, err)
	}
}
