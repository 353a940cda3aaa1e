package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestParseUnixSockets: the pathname sockets of the kernel's list, abstract
// and unbound ones skipped, relative names counted, spaces kept, repeats
// (an accepted connection lists its listener's path) dropped.
func TestParseUnixSockets(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []string
		relative int
	}{
		{"empty", "", nil, 0},
		{"header only", "Num       RefCount Protocol Flags    Type St Inode Path\n", nil, 0},
		{"unbound", "Num RefCount Protocol Flags Type St Inode Path\n0000: 00000003 00000000 00000000 0001 03   554\n", nil, 0},
		{"listener", "Num RefCount Protocol Flags Type St Inode Path\n0000: 00000002 00000000 00010000 0001 01 31 /tmp/x/custom.sock\n", []string{"/tmp/x/custom.sock"}, 0},
		{"abstract", "0000: 00000002 00000000 00010000 0001 01 31 @/tmp/.X11-unix/X0\n", nil, 0},
		{"relative", "0000: 00000002 00000000 00010000 0001 01 31 x.sock\n0000: 00000002 00000000 00010000 0001 01 32 ./y.sock\n", nil, 2},
		{"space in path", "0000: 00000002 00000000 00010000 0001 01 31 /tmp/a b/s.sock\n", []string{"/tmp/a b/s.sock"}, 0},
		{"repeat and unclean", "0000: 00000002 00000000 00010000 0001 01 31 /run/a//b.sock\n0000: 00000003 00000000 00000000 0001 03 40 /run/a/b.sock\n", []string{"/run/a/b.sock"}, 0},
		{"datagram", "0000: 00000002 00000000 00000000 0002 01 33 /run/systemd/notify\n", []string{"/run/systemd/notify"}, 0},
		{"no header, several", "0000: 2 0 10000 1 1 1 /a.sock\n0001: 2 0 10000 1 1 2 /b.sock\n", []string{"/a.sock", "/b.sock"}, 0},
		{"newline in path", "0000: 00000002 00000000 00010000 0001 01 31 /tmp/a\nb/s.sock\n0000: 00000002 00000000 00010000 0001 01 32 /c.sock\n", []string{"/tmp/a\nb/s.sock", "/c.sock"}, 0},
		{"two newlines", "0000: 00000002 00000000 00010000 0001 01 31 /tmp/x\n\ny.sock\n", []string{"/tmp/x\n\ny.sock"}, 0},
		{"newline then record-like text", "0000: 00000002 00000000 00010000 0001 01 31 /tmp/x\n0000: zz /y\n", []string{"/tmp/x\n0000: zz /y"}, 0},
		{"kernel pointer field", "ffff8881049c5c00: 00000002 00000000 00010000 0001 01 31 /k.sock\n", []string{"/k.sock"}, 0},
	} {
		l, err := parseUnixSockets(strings.NewReader(c.in))
		got, rel := l.Paths, l.Relative
		if err != nil || !slices.Equal(got, c.want) || rel != c.relative {
			t.Errorf("%s: parseUnixSockets = %q, %d, %v; want %q, %d", c.name, got, rel, err, c.want, c.relative)
		}
		if strings.Contains(strings.Join(c.want, ""), "\n") != (len(l.Notes) == 1) {
			t.Errorf("%s: notes %q: want one note exactly when a path holds a newline", c.name, l.Notes)
		}
	}
}

// TestParseUnixSocketsOrphan: a first line that is no record start is
// unparseable: a degraded note, nothing invented.
func TestParseUnixSocketsOrphan(t *testing.T) {
	l, err := parseUnixSockets(strings.NewReader("Num RefCount Protocol Flags Type St Inode Path\nrest-of-a-path.sock\n"))
	if err != nil || len(l.Paths) != 0 || len(l.Notes) != 1 || !strings.Contains(l.Notes[0], "could not be parsed") {
		t.Errorf("orphan line: %+v %v", l, err)
	}
}

// TestForeignSockets: every bound socket outside the workspace roots is
// hidden, the allowlist applies with the network on only, a socket whose path
// is gone is dropped, one reached through a symlinked directory is judged by
// where it lies.
func TestForeignSockets(t *testing.T) {
	ws, other := t.TempDir(), t.TempDir()
	touch := func(p string) string {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	inWS := touch(filepath.Join(ws, "srv", "dev.sock"))
	out := touch(filepath.Join(other, "tmux.sock"))
	if err := os.Symlink(ws, filepath.Join(other, "ws-link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, filepath.Join(ws, "out-link")); err != nil {
		t.Fatal(err)
	}
	viaLinkIn := filepath.Join(other, "ws-link", "srv", "dev.sock")
	viaLinkOut := filepath.Join(ws, "out-link", "tmux.sock")
	gone := filepath.Join(other, "gone.sock")
	bound := []string{inWS, out, viaLinkIn, viaLinkOut, gone}
	for _, network := range []bool{false, true} {
		got := foreignSockets(bound, []string{ws}, network)
		if want := []string{out, viaLinkOut}; !slices.Equal(got, want) {
			t.Errorf("network %v: foreignSockets = %q, want %q", network, got, want)
		}
	}
	// The allowlisted resolver socket, where it exists on this machine.
	const resolve = "/run/systemd/resolve/io.systemd.Resolve"
	if _, err := os.Stat(resolve); err == nil {
		if got := foreignSockets([]string{resolve}, []string{ws}, true); len(got) != 0 {
			t.Errorf("network on: the resolver socket is hidden: %q", got)
		}
		if got := foreignSockets([]string{resolve}, []string{ws}, false); len(got) != 1 {
			t.Errorf("network off: the resolver socket is not hidden: %q", got)
		}
	}
}

// TestAllowedSocketsDriveNothing: no daemon that starts processes, no session
// socket is on the allowlist, and each entry says why it is there.
func TestAllowedSocketsDriveNothing(t *testing.T) {
	bad := append(DaemonSockets(), "docker", "podman", "containerd", "dbus", "bus", "systemd/private", "tmux", "screen",
		"X11", "wayland", "nvim", "emacs", "vscode", "kitty", "wezterm", "zellij", "ssh", "gnupg", "Monitor")
	for _, a := range AllowedSockets {
		if !filepath.IsAbs(a.Path) || a.Why == "" {
			t.Errorf("allowlist entry %q: want an absolute path and a reason", a.Path)
		}
		for _, b := range bad {
			if strings.Contains(a.Path, b) {
				t.Errorf("allowlist entry %q names %q: never allowed", a.Path, b)
			}
		}
	}
}
