package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// PincerDirs returns pincer's own directories, which sandboxed commands must
// not see (the encrypted secrets and their key, the store, the store daemon's
// socket and token), resolved from getenv as pincer resolves them: the config
// dir ($PINCER_HOME, else $XDG_CONFIG_HOME/pincer, else ~/.config/pincer),
// the data dir ($PINCER_HOME/data, else $XDG_DATA_HOME/pincer, else
// ~/.local/share/pincer) and the run dir ($PINCER_HOME/run, else
// $XDG_RUNTIME_DIR/pincer), plus the run dir's fallback $TMPDIR/pincer-<uid>.
func PincerDirs(getenv func(string) string, home string) []string {
	var out []string
	add := func(p string) {
		if p != "" && filepath.IsAbs(p) && !slices.Contains(out, p) {
			out = append(out, filepath.Clean(p))
		}
	}
	if h := getenv("PINCER_HOME"); h != "" {
		add(h)
	} else {
		if x := getenv("XDG_CONFIG_HOME"); x != "" {
			add(filepath.Join(x, "pincer"))
		} else if home != "" {
			add(filepath.Join(home, ".config", "pincer"))
		}
		if x := getenv("XDG_DATA_HOME"); x != "" {
			add(filepath.Join(x, "pincer"))
		} else if home != "" {
			add(filepath.Join(home, ".local", "share", "pincer"))
		}
		if x := getenv("XDG_RUNTIME_DIR"); x != "" {
			add(filepath.Join(x, "pincer"))
		}
	}
	tmp := getenv("TMPDIR")
	if tmp == "" {
		tmp = "/tmp"
	}
	add(filepath.Join(tmp, fmt.Sprintf("pincer-%d", os.Getuid())))
	return out
}

// DefaultQuarantineDir is where the sandbox moves protected paths a command
// created: the "quarantine" directory of pincer's data dir (see PincerDirs),
// "" when there is no home directory.
func DefaultQuarantineDir() string {
	if h := os.Getenv("PINCER_HOME"); h != "" {
		return filepath.Join(h, "data", "quarantine")
	}
	if x := os.Getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "pincer", "quarantine")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "share", "pincer", "quarantine")
	}
	return ""
}

// DefaultHiddenPaths returns what every sandboxed command has hidden, from
// pincer's environment: PincerDirs, HomeSecretPaths (the HomeSecrets table
// under $HOME and the XDG directories), AgentSockets and SessionSockets
// (terminal multiplexers, display servers, editor servers). Absolute and clean;
// some may not exist. `pincer doctor` lists them.
func DefaultHiddenPaths() []string {
	home, _ := os.UserHomeDir()
	out := append(PincerDirs(os.Getenv, home), HomeSecretPaths(os.Getenv, home)...)
	out = append(out, AgentSockets(os.Getenv)...)
	return dedupe(append(out, SessionSockets(os.Getenv, home)...))
}

// AgentSockets returns the sockets of the user's credential agents, which a
// sandboxed command could ask to sign or decrypt for it: ssh-agent's
// SSH_AUTH_SOCK (its private directory when it has one of its own, as
// ssh-agent's /tmp/ssh-XXXX/agent.PID), every /tmp/ssh-* directory (and the
// same under $TMPDIR), and gpg-agent's and the keyring daemon's directories
// under $XDG_RUNTIME_DIR. Paths that do not exist are dropped later (hiddenFor).
func AgentSockets(getenv func(string) string) []string {
	var out []string
	if s := getenv("SSH_AUTH_SOCK"); s != "" && filepath.IsAbs(s) {
		s = filepath.Clean(s)
		if dir := filepath.Dir(s); strings.HasPrefix(filepath.Base(dir), "ssh-") {
			out = append(out, dir)
		} else {
			out = append(out, s)
		}
	}
	tmps := []string{"/tmp"}
	if t := getenv("TMPDIR"); t != "" && filepath.IsAbs(t) {
		tmps = append(tmps, filepath.Clean(t))
	}
	for _, t := range tmps {
		if m, err := filepath.Glob(filepath.Join(t, "ssh-*")); err == nil {
			out = append(out, m...)
		}
	}
	if x := getenv("XDG_RUNTIME_DIR"); x != "" && filepath.IsAbs(x) {
		out = append(out, filepath.Join(x, "gnupg"), filepath.Join(x, "keyring"),
			filepath.Join(x, "ssh-agent.socket"), filepath.Join(x, "gcr"))
	}
	return dedupe(out)
}

// dedupe returns paths without repeats, in order.
func dedupe(paths []string) []string {
	var out []string
	for _, p := range paths {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// hiddenPath is one path the helper covers (see hidePaths).
type hiddenPath struct {
	// Path is absolute and symlink-free.
	Path string `json:"path"`
	// Keep are the visible directories inside Path (a workspace root, an
	// added directory such as the session's spill directory, the working
	// directory): Path is covered whole and each is bound back in at its
	// place, so nothing else in Path can be seen, written or created.
	Keep []string `json:"keep,omitempty"`
	// Pin are the directories from the writable tree holding Path down to
	// Path's parent, each pinned with a bind mount of itself (a mount point
	// cannot be renamed), so that no command can move Path away and put a
	// directory of its own in its place.
	Pin []string `json:"pin,omitempty"`
}

// hiddenFor turns the hidden paths into what the helper mounts over: each
// existing path, resolved, with the visible paths (workspace roots and added
// directories, the working directory) inside it to keep and, for one inside
// a writable tree (trees: their paths), the directories to pin. A hidden path
// that is itself visible stays visible (the workspace is the hidden dir); one
// inside another hidden path is dropped unless it lies in a kept directory
// there. Outer paths come first, as they must be mounted. Paths that do not
// exist are dropped.
func hiddenFor(hidden, visible, trees []string) []hiddenPath {
	var out []hiddenPath
	for _, h := range hidden {
		if h == "" || !filepath.IsAbs(h) {
			continue
		}
		// Most candidates do not exist: one lstat says so, where
		// EvalSymlinks would lstat every component first.
		if _, err := os.Lstat(h); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		real, err := filepath.EvalSymlinks(h)
		if err != nil || real == "/" || slices.Contains(visible, real) ||
			slices.ContainsFunc(out, func(o hiddenPath) bool { return o.Path == real }) {
			continue
		}
		hp := hiddenPath{Path: real}
		for _, v := range visible {
			if v != real && within(real, v) && !slices.ContainsFunc(visible, func(o string) bool {
				return o != v && o != real && within(real, o) && within(o, v)
			}) && !slices.Contains(hp.Keep, v) {
				hp.Keep = append(hp.Keep, v)
			}
		}
		hp.Pin = pinChain(real, trees)
		out = append(out, hp)
	}
	slices.SortStableFunc(out, func(a, b hiddenPath) int { return len(a.Path) - len(b.Path) })
	var kept []hiddenPath
	for _, hp := range out {
		inside := slices.ContainsFunc(kept, func(o hiddenPath) bool {
			return within(o.Path, hp.Path) && !slices.ContainsFunc(o.Keep, func(k string) bool { return within(k, hp.Path) })
		})
		if !inside {
			kept = append(kept, hp)
		}
	}
	return kept
}

// pinChain returns the directories from the outermost tree of trees holding p
// (p excluded) down to p's parent — a directory anywhere on the way could be
// renamed through that tree; nil when no tree holds p.
func pinChain(p string, trees []string) []string {
	best := ""
	for _, t := range trees {
		if t != p && within(t, p) && (best == "" || len(t) < len(best)) {
			best = t
		}
	}
	if best == "" {
		return nil
	}
	var chain []string
	for d := filepath.Dir(p); within(best, d); d = filepath.Dir(d) {
		chain = append([]string{d}, chain...)
		if d == best {
			break
		}
	}
	return chain
}

// DaemonSockets returns the sockets of local daemons that can start processes
// outside the sandbox (and its PID namespace) or act as root on a command's
// behalf: Docker, containerd, Podman, the system and session D-Bus (systemd-run),
// systemd's private socket. With the network off they are hidden too
// (connecting to them is refused); with it on they stay, as the network does.
func DaemonSockets() []string {
	out := []string{
		"/run/docker.sock", "/var/run/docker.sock", "/run/containerd/containerd.sock",
		"/run/podman/podman.sock", "/run/dbus/system_bus_socket", "/var/run/dbus/system_bus_socket",
		"/run/systemd/private", "/run/systemd/io.system.ManagedOOM", "/run/user/" + fmt.Sprint(os.Getuid()) + "/bus",
		"/run/user/" + fmt.Sprint(os.Getuid()) + "/systemd/private",
	}
	if x := os.Getenv("XDG_RUNTIME_DIR"); x != "" {
		out = append(out, filepath.Join(x, "bus"), filepath.Join(x, "systemd", "private"),
			filepath.Join(x, "docker.sock"), filepath.Join(x, "podman", "podman.sock"))
	}
	if h := os.Getenv("DOCKER_HOST"); strings.HasPrefix(h, "unix://") {
		out = append(out, strings.TrimPrefix(h, "unix://"))
	}
	return dedupe(out)
}
