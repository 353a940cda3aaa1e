package smallfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestKernelFileRefused: a procfs file is refused by the file system it is
// on (fstatfs of the open descriptor), whatever its name or type says —
// /proc/self/environ is a "regular" file holding pincer's environment.
func TestKernelFileRefused(t *testing.T) {
	for _, p := range []string{"/proc/self/environ", "/proc/self/status", "/proc/version"} {
		_, err := Read(p, 1<<20)
		if err == nil || !strings.Contains(err.Error(), "procfs") || !errors.Is(err, ErrRefused) {
			t.Errorf("%s: %v", p, err)
		}
	}
	if _, err := os.Stat("/sys/kernel"); err == nil {
		if _, err := Read("/sys/kernel/uevent_seqnum", 64); err == nil || !strings.Contains(err.Error(), "sysfs") {
			t.Errorf("sysfs: %v", err)
		}
	}
}

func TestPlace(t *testing.T) {
	root, home, out := t.TempDir(), t.TempDir(), t.TempDir()
	write := func(p, s string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) string {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	secret := filepath.Join(home, ".ssh", "id_rsa")
	write(secret, "KEY")
	write(filepath.Join(root, "in.md"), "IN")
	write(filepath.Join(out, "out.md"), "OUT")
	write(filepath.Join(root, ".ssh", "id_rsa"), "REPO-KEY") // a hidden location inside the root (pincer run in $HOME)
	hidden := func(p string) bool {
		return Within(filepath.Join(home, ".ssh"), p) || Within(filepath.Join(root, ".ssh"), p)
	}
	fifo := filepath.Join(out, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	project := Place{Root: root, Hidden: hidden}
	user := Place{Hidden: hidden}
	cases := []struct {
		name  string
		place Place
		path  string
		want  string // content, or a word of the error
	}{
		{"plain project file", project, filepath.Join(root, "in.md"), "IN"},
		{"link inside", project, link("in.md", filepath.Join(root, "a.md")), "IN"},
		{"chain inside", project, link("a.md", filepath.Join(root, "b.md")), "IN"},
		{"link to the key", project, link(secret, filepath.Join(root, "k.md")), "outside the workspace"},
		{"relative link out", project, link("../"+filepath.Base(out)+"/out.md", filepath.Join(root, "r.md")), "outside the workspace"},
		{"chain out", project, link("k.md", filepath.Join(root, "c.md")), "outside the workspace"},
		{"directory link out", project, filepath.Join(link(filepath.Join(home, ".ssh"), filepath.Join(root, "d")), "id_rsa"), "outside the workspace"},
		{"link to a hidden location inside", project, link(".ssh/id_rsa", filepath.Join(root, "h.md")), "credentials location"},
		{"proc", project, link("/proc/self/environ", filepath.Join(root, "e.md")), "outside the workspace"},
		{"fifo inside", project, link("fifo", filepath.Join(root, "f.md")), "not a regular file"},
		{"user link elsewhere", user, link(filepath.Join(out, "out.md"), filepath.Join(home, "u.md")), "OUT"},
		{"user link to the key", user, link(secret, filepath.Join(home, "uk.md")), "credentials location"},
		{"user link to proc", user, link("/proc/self/environ", filepath.Join(home, "ue.md")), "kernel"},
		{"user link to a fifo", user, link(fifo, filepath.Join(home, "uf.md")), "not a regular file"},
		{"user file in the hidden location itself", user, secret, "KEY"},
	}
	for _, c := range cases {
		b, err := c.place.Read(c.path, 64)
		got := string(b)
		if err != nil {
			got = err.Error()
			if !strings.HasPrefix(got, c.path+": ") || !errors.Is(err, ErrRefused) {
				t.Errorf("%s: error %q does not name %s or is not a refusal", c.name, got, c.path)
			}
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestPlaceRefusesHardLinks (red team 2): `ln ~/.ssh/id_rsa AGENTS.md` put
// the key in the system prompt: a project file with a second name is refused;
// a user file (no Root) may have one.
func TestPlaceRefusesHardLinks(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "id_rsa")
	if err := os.WriteFile(secret, []byte("KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "AGENTS.md")
	if err := os.Link(secret, link); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	if b, err := (Place{Root: root}).Read(link, 1<<20); err == nil || !errors.Is(err, ErrRefused) {
		t.Errorf("project hard link read: %q, %v; want refused", b, err)
	}
	if b, err := (Place{}).Read(link, 1<<20); err != nil || string(b) != "KEY" {
		t.Errorf("user file with two names: %q, %v; want read", b, err)
	}
	plain := filepath.Join(root, "CLAUDE.md")
	if err := os.WriteFile(plain, []byte("ok"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := (Place{Root: root}).Read(plain, 1<<20); err != nil || string(b) != "ok" {
		t.Errorf("plain project file: %q, %v", b, err)
	}
}
