package tools

import (
	"errors"
	"fmt"
	"testing"
)

// TestPreviewCannotSucceed is the table of Preview errors -> fail at once or
// ask: a precondition of the tool itself that Run checks the same way (not
// read yet, changed since read, old_string not found / not unique / equal to
// new_string, no such file) says the call cannot succeed; anything else —
// the path guard, a panic, a preview that merely could not be shown — still
// asks (CannotSucceed false), so it never turns an ask into an allow.
func TestPreviewCannotSucceed(t *testing.T) {
	env, root := newTestEnv(t)
	write := func(name, content string) { writeTestFile(t, root, name, content) }
	write("read.txt", "a\nb\nb\n")
	write("unread.txt", "x\n")
	write("changed.txt", "one\n")
	readFirst(t, env, "read.txt")
	readFirst(t, env, "changed.txt")
	write("changed.txt", "one\ntwo\n")

	edit := func(path, old, new string) func() error {
		return func() error {
			_, err := Edit{}.Preview(env, EditInput{FilePath: path, OldString: old, NewString: new})
			return err
		}
	}
	wr := func(path, content string) func() error {
		return func() error {
			_, err := Write{}.Preview(env, WriteInput{FilePath: path, Content: content})
			return err
		}
	}
	cases := []struct {
		name string
		err  func() error
		fail bool // true: fail as a tool result without asking; false: ask
	}{
		{"edit not read", edit("unread.txt", "x", "y"), true},
		{"write not read", wr("unread.txt", "y\n"), true},
		{"edit old_string not found", edit("read.txt", "zzz", "y"), true},
		{"edit old_string not unique", edit("read.txt", "b", "c"), true},
		{"edit same strings", edit("read.txt", "a", "a"), true},
		{"edit no such file", edit("missing.txt", "a", "b"), true},
		{"edit empty old_string on content", edit("read.txt", "", "b"), true},
		{"write changed since read", wr("changed.txt", "z\n"), true},
		{"edit changed since read, not found", edit("changed.txt", "zzz", "y"), true},
		{"edit outside the workspace asks", edit("/etc/hostname", "a", "b"), false},
		{"diff too big to show asks", func() error { return errors.New("diff too big to show") }, false},
		{"panic in preview asks", func() error { return fmt.Errorf("internal error in Edit: boom") }, false},
		{"nil error asks", func() error { return nil }, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.err()
			if c.fail && err == nil {
				t.Fatal("Preview succeeded; the case wants a precondition failure")
			}
			if got := CannotSucceed(err); got != c.fail {
				t.Errorf("CannotSucceed(%v) = %v, want %v", err, got, c.fail)
			}
		})
	}
	if _, err := (Write{}).Preview(env, WriteInput{FilePath: "unread.txt", Content: "y\n"}); !errors.Is(err, ErrNotRead) || err.Error() != ErrNotRead.Error() {
		t.Errorf("the marked error %v must still be ErrNotRead with its own text", err)
	}
}
