package tools

import (
	"reflect"
	"testing"
)

// TestUseApplyPatch: apply_patch takes Edit's place, MultiEdit and Write
// leave; NotebookEdit stays (apply_patch has no cell model, Codex has no
// notebook tool).
func TestUseApplyPatch(t *testing.T) {
	r := Default()
	UseApplyPatch(r)
	want := []string{"Bash", "BashOutput", "KillShell", "Glob", "Grep", "Read", "apply_patch", "NotebookEdit", "TodoWrite", "ToolSearch"}
	var got []string
	for _, tool := range r.All() {
		got = append(got, tool.Spec().Name)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("tools %v, want %v", got, want)
	}
	if _, ok := r.Get("apply_patch"); !ok {
		t.Fatal("apply_patch not registered")
	}
}
