package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckHome: PINCER_HOME unset, a directory, or not yet made is fine; a
// file, a path below a file, or a relative path is refused with one line
// naming it.
func TestCheckHome(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "afile")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		home string
		want string // "" for no error, else a part of the message
	}{
		{"", ""},
		{dir, ""},
		{filepath.Join(dir, "not-yet"), ""},
		{file, "is not a directory"},
		{filepath.Join(file, "below"), "is not a directory"},
		{"relative/home", "absolute path"},
	}
	for _, c := range cases {
		err := CheckHome(func(k string) string {
			if k == "PINCER_HOME" {
				return c.home
			}
			return ""
		})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("PINCER_HOME=%q: %v, want no error", c.home, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "PINCER_HOME") || strings.Contains(err.Error(), "\n")):
			t.Errorf("PINCER_HOME=%q: %v, want one line naming PINCER_HOME and saying %q", c.home, err, c.want)
		}
	}
}
