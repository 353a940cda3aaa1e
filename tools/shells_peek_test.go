package tools

import (
	"strings"
	"testing"
	"time"
)

// TestPeekSafeOutput: /bashes ID shows a background shell's output made safe
// as BashOutput's (SafeOutput): escapes removed, control bytes and bidi
// overrides shown, with the note; Peek consumes nothing.
func TestPeekSafeOutput(t *testing.T) {
	env, _, _ := bgEnv(t)
	id := startShell(t, env, `printf 'a\033]0;title\007b\000c\342\200\256d\nPEEK-DONE\n'`)
	var p ShellPeek
	deadline := time.Now().Add(10 * time.Second)
	for {
		var err error
		if p, err = env.Shells.Peek(id); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(p.Output, "PEEK-DONE") || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if want := "ab\\x00c⟦U+202E⟧d\nPEEK-DONE\n"; p.Output != want {
		t.Fatalf("Peek output %q, want %q", p.Output, want)
	}
	assertTranscriptSafe(t, p.Output)
	for _, w := range []string{"1 control byte", "1 invisible format character"} {
		if !strings.Contains(p.Note, w) {
			t.Errorf("note %q lacks %q", p.Note, w)
		}
	}
	if out := readShell(t, env, id, ""); !strings.Contains(out, "ab\\x00c⟦U+202E⟧d") {
		t.Errorf("BashOutput after Peek lacks the output: %q", out)
	}
}
