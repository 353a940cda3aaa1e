package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestDiscoveredInstructionLinksRefused: a repository's own instruction file
// (root or nested, AGENTS.md, CLAUDE.md, CLAUDE.local.md) that is a link out
// of the project is refused by the check its imports get, with a Refused
// entry naming it; a link inside the project and the user's own file are read.
func TestDiscoveredInstructionLinksRefused(t *testing.T) {
	l := newLayout(t)
	key := write(t, l.home, ".ssh/id_rsa", "SECRET-KEY\n")
	write(t, l.repo, "docs/guide.md", "IN-PROJECT-GUIDE\n")
	write(t, l.home, ".claude/CLAUDE.md", "USER-OWN\n")
	cases := []struct{ rel, target string }{
		{"AGENTS.md", key},
		{"CLAUDE.md", "../home/.ssh/id_rsa"},
		{"CLAUDE.local.md", "/proc/self/environ"},
		{"sub/CLAUDE.md", key},
	}
	for _, c := range cases {
		p := filepath.Join(l.repo, c.rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.Symlink(c.target, p); err != nil {
			t.Fatal(err)
		}
	}
	fifo := filepath.Join(l.repo, "sub", "AGENTS.md")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	os.Symlink("../docs/guide.md", filepath.Join(l.repo, "sub", "CLAUDE.local.md"))
	in, err := LoadInstructions(filepath.Join(l.repo, "sub"), l.pincer, l.home)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(in.Text, "SECRET-KEY") || strings.Contains(in.Text, "PATH=") {
		t.Errorf("a secret reached the instructions:\n%s", in.Text)
	}
	if !strings.Contains(in.Text, "IN-PROJECT-GUIDE") || !strings.Contains(in.Text, "USER-OWN") {
		t.Errorf("the link inside the project or the user's file is missing:\n%s", in.Text)
	}
	refused := strings.Join(in.Refused, "\n")
	for _, c := range append(cases, struct{ rel, target string }{"sub/AGENTS.md", ""}) {
		if !strings.Contains(refused, filepath.Join(l.repo, c.rel)+": ") {
			t.Errorf("%s is not refused by name:\n%s", c.rel, refused)
		}
	}
}
