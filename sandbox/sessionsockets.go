package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// SessionSockets returns the sockets (and the directories holding them) through
// which a command could type into, read or spawn processes in the person's own
// session, outside the sandbox: terminal multiplexers (tmux's whole
// ${TMUX_TMPDIR:-/tmp}/tmux-UID and the socket directory named by $TMUX; GNU
// screen's /run/screen/S-*, /var/run/screen/S-*, $SCREENDIR, ~/.screen;
// zellij's $XDG_RUNTIME_DIR/zellij and /tmp/zellij-UID), display servers (X11's
// /tmp/.X11-unix, Wayland's $XDG_RUNTIME_DIR/wayland-*), terminals with a
// remote-control socket (kitty's $KITTY_LISTEN_ON when it is a unix: path,
// wezterm's $WEZTERM_UNIX_SOCKET, ~/.local/share/wezterm,
// $XDG_RUNTIME_DIR/wezterm) and editor servers (Emacs's
// $XDG_RUNTIME_DIR/emacs and /tmp/emacsUID, Neovim's $NVIM,
// $NVIM_LISTEN_ADDRESS, $XDG_RUNTIME_DIR/nvim.* and /tmp/nvim.*, VS Code's
// $VSCODE_IPC_HOOK_CLI and $XDG_RUNTIME_DIR/vscode-*.sock). Unlike
// DaemonSockets they are hidden with the network on too, as SSH_AUTH_SOCK is:
// a named Unix socket is not isolated by a network namespace. The globs are
// resolved now (each sandbox set-up calls this anew); /tmp stands for $TMPDIR
// too. Absolute, clean, without repeats; some may not exist (hiddenFor drops
// those). getenv nil is os.Getenv.
func SessionSockets(getenv func(string) string, home string) []string {
	if getenv == nil {
		getenv = os.Getenv
	}
	uid := fmt.Sprint(os.Getuid())
	var out []string
	add := func(ps ...string) {
		for _, p := range ps {
			if p != "" && filepath.IsAbs(p) && filepath.Clean(p) != "/" {
				out = append(out, filepath.Clean(p))
			}
		}
	}
	glob := func(pattern string) {
		if m, err := filepath.Glob(pattern); err == nil {
			add(m...)
		}
	}
	// sock adds a socket named by a variable: its directory when that is the
	// tool's own (its base name starts with prefix), else the socket itself.
	sock := func(p, prefix string) {
		if p == "" || !filepath.IsAbs(p) {
			return
		}
		p = filepath.Clean(p)
		if dir := filepath.Dir(p); prefix != "" && strings.HasPrefix(filepath.Base(dir), prefix) {
			add(dir)
		}
		add(p)
	}
	tmps := []string{"/tmp"}
	if t := getenv("TMPDIR"); t != "" && filepath.IsAbs(t) {
		tmps = append(tmps, filepath.Clean(t))
	}
	if t := getenv("TMUX_TMPDIR"); t != "" && filepath.IsAbs(t) {
		add(filepath.Join(t, "tmux-"+uid))
	}
	// $TMUX is "socket,server-pid,session".
	tmux, _, _ := strings.Cut(getenv("TMUX"), ",")
	sock(tmux, "tmux-")
	for _, t := range tmps {
		add(filepath.Join(t, "tmux-"+uid), filepath.Join(t, "zellij-"+uid), filepath.Join(t, "emacs"+uid))
		glob(filepath.Join(t, "nvim.*"))
	}
	add("/tmp/.X11-unix")
	glob("/run/screen/S-*")
	glob("/var/run/screen/S-*")
	add(getenv("SCREENDIR"))
	if home != "" {
		add(filepath.Join(home, ".screen"), filepath.Join(home, ".local", "share", "wezterm"))
	}
	if x := getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		add(filepath.Join(x, "wezterm"))
	}
	if k, ok := strings.CutPrefix(getenv("KITTY_LISTEN_ON"), "unix:"); ok {
		sock(k, "")
	}
	sock(getenv("WEZTERM_UNIX_SOCKET"), "")
	sock(getenv("NVIM"), "nvim.")
	sock(getenv("NVIM_LISTEN_ADDRESS"), "nvim")
	sock(getenv("VSCODE_IPC_HOOK_CLI"), "")
	if x := getenv("XDG_RUNTIME_DIR"); x != "" && filepath.IsAbs(x) {
		add(filepath.Join(x, "zellij"), filepath.Join(x, "wezterm"), filepath.Join(x, "emacs"))
		glob(filepath.Join(x, "wayland-*"))
		glob(filepath.Join(x, "nvim.*"))
		glob(filepath.Join(x, "vscode-*.sock"))
		if w := getenv("WAYLAND_DISPLAY"); w != "" && !strings.Contains(w, "/") {
			add(filepath.Join(x, w))
		}
	}
	if w := getenv("WAYLAND_DISPLAY"); filepath.IsAbs(w) {
		add(w)
	}
	return dedupe(out)
}
