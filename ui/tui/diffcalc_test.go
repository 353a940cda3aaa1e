package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/message"
	"pincer/persist/memory"
)

func TestWouldBeDiff(t *testing.T) {
	root := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", "one\ntwo\nthree\ntwo\n")
	write("crlf.txt", "x\r\ny\r\n")
	tests := []struct {
		name, tool, input string
		want              []string // substrings
		err               string
	}{
		{"edit one", "Edit", `{"file_path":"a.txt","old_string":"one","new_string":"ONE"}`, []string{"--- a/a.txt", "+++ b/a.txt", "-one", "+ONE"}, ""},
		{"edit absolute", "Edit", `{"file_path":"` + filepath.Join(root, "a.txt") + `","old_string":"three","new_string":"3"}`, []string{"-three", "+3"}, ""},
		{"replace all", "Edit", `{"file_path":"a.txt","old_string":"two","new_string":"2","replace_all":true}`, []string{"-two", "+2"}, ""},
		{"ambiguous", "Edit", `{"file_path":"a.txt","old_string":"two","new_string":"2"}`, nil, "occurs 2 times"},
		{"no match", "Edit", `{"file_path":"a.txt","old_string":"four","new_string":"4"}`, nil, "not in the file"},
		{"create with edit", "Edit", `{"file_path":"new.txt","old_string":"","new_string":"hi\n"}`, []string{"--- /dev/null", "+hi"}, ""},
		{"missing file", "Edit", `{"file_path":"nope.txt","old_string":"a","new_string":"b"}`, nil, "does not exist"},
		{"crlf", "Edit", `{"file_path":"crlf.txt","old_string":"x\ny","new_string":"x\nz"}`, []string{"-y\r", "+z\r"}, ""},
		{"write new", "Write", `{"file_path":"w.txt","content":"a\nb\n"}`, []string{"--- /dev/null", "+++ b/w.txt", "+a", "+b"}, ""},
		{"write over", "Write", `{"file_path":"a.txt","content":"one\n"}`, []string{"--- a/a.txt", "-two", "-three"}, ""},
		{"other tool", "Bash", `{"command":"ls"}`, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := wouldBeDiff(root, tt.tool, tt.input)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("diff lacks %q:\n%s", w, got)
				}
			}
			if tt.want == nil && got != "" {
				t.Errorf("diff for %s = %q", tt.tool, got)
			}
		})
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "one\ntwo\nthree\ntwo\n" {
		t.Errorf("a preview changed the file: %q", b)
	}
}

func TestToolCallInputFromTranscript(t *testing.T) {
	store := memory.New()
	ctx := context.Background()
	if _, err := store.AppendMessage(ctx, message.Message{SessionID: "s", Role: message.RoleAssistant, Parts: []message.Part{
		{Type: message.PartText, Text: "editing"},
		{Type: message.PartToolCall, ToolCallID: "c7", ToolName: "Edit", Input: `{"x":1}`},
	}}); err != nil {
		t.Fatal(err)
	}
	if in, err := toolCallInput(ctx, store, "s", "c7"); err != nil || in != `{"x":1}` {
		t.Errorf("input = %q, %v", in, err)
	}
	if _, err := toolCallInput(ctx, store, "s", "c8"); err == nil {
		t.Error("missing call found")
	}
}
