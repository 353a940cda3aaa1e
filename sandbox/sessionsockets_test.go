package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSessionSockets: the table of what each variable (or none) makes hidden,
// and what must never be (relative values, "/", a $TMUX socket outside a
// tmux-UID directory taking its whole directory along).
func TestSessionSockets(t *testing.T) {
	uid := fmt.Sprint(os.Getuid())
	rt := t.TempDir()
	for _, f := range []string{"wayland-0", "wayland-1.lock", "nvim.42.0", "vscode-ipc-1.sock", "pulse"} {
		if err := os.WriteFile(filepath.Join(rt, f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name    string
		env     map[string]string
		want    []string
		notWant []string
	}{
		{"defaults", nil,
			[]string{"/tmp/tmux-" + uid, "/tmp/.X11-unix", "/tmp/zellij-" + uid, "/tmp/emacs" + uid,
				"/HOME/.screen", "/HOME/.local/share/wezterm"}, nil},
		{"tmux tmpdir", map[string]string{"TMUX_TMPDIR": "/var/tm"}, []string{"/var/tm/tmux-" + uid, "/tmp/tmux-" + uid}, nil},
		{"tmux socket dir", map[string]string{"TMUX": "/srv/t/tmux-" + uid + "/work,123,0"}, []string{"/srv/t/tmux-" + uid}, nil},
		{"tmux odd socket", map[string]string{"TMUX": "/srv/mysock,1,0"}, []string{"/srv/mysock"}, []string{"/srv"}},
		{"tmux relative", map[string]string{"TMUX": "rel/sock,1,0", "TMUX_TMPDIR": "rel"}, nil, []string{"rel/sock"}},
		{"screen", map[string]string{"SCREENDIR": "/var/scr"}, []string{"/var/scr"}, nil},
		{"kitty unix", map[string]string{"KITTY_LISTEN_ON": "unix:/tmp/kitty-sock"}, []string{"/tmp/kitty-sock"}, nil},
		{"kitty tcp", map[string]string{"KITTY_LISTEN_ON": "tcp:localhost:1234"}, nil, []string{"localhost:1234"}},
		{"wezterm", map[string]string{"WEZTERM_UNIX_SOCKET": "/w/sock", "XDG_DATA_HOME": "/xd"}, []string{"/w/sock", "/xd/wezterm"}, nil},
		{"nvim", map[string]string{"NVIM": "/run/user/1/nvim.9.0", "NVIM_LISTEN_ADDRESS": "/tmp/nvimAb/0"},
			[]string{"/run/user/1/nvim.9.0", "/tmp/nvimAb"}, []string{"/run/user/1"}},
		{"vscode", map[string]string{"VSCODE_IPC_HOOK_CLI": "/v/vscode-ipc.sock"}, []string{"/v/vscode-ipc.sock"}, []string{"/v"}},
		{"runtime dir", map[string]string{"XDG_RUNTIME_DIR": rt, "WAYLAND_DISPLAY": "wayland-9"},
			[]string{rt + "/zellij", rt + "/wezterm", rt + "/emacs", rt + "/wayland-0", rt + "/wayland-1.lock",
				rt + "/wayland-9", rt + "/nvim.42.0", rt + "/vscode-ipc-1.sock"},
			[]string{rt, rt + "/pulse"}},
		{"root never", map[string]string{"SCREENDIR": "/", "WEZTERM_UNIX_SOCKET": "/"}, nil, []string{"/"}},
	}
	for _, c := range cases {
		got := SessionSockets(func(k string) string { return c.env[k] }, "/HOME")
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: SessionSockets = %v, want %s in it", c.name, got, w)
			}
		}
		for _, w := range c.notWant {
			if slices.Contains(got, w) {
				t.Errorf("%s: SessionSockets = %v, want no %s", c.name, got, w)
			}
		}
		for _, p := range got {
			if !filepath.IsAbs(p) || filepath.Clean(p) != p {
				t.Errorf("%s: %q is not absolute and clean", c.name, p)
			}
		}
	}
}
