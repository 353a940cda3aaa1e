package sandbox

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// ProcNetUnix is the kernel's list of the Unix sockets of pincer's network
// namespace (one line per socket: Num RefCount Protocol Flags Type St Inode
// Path), read when a sandbox is set up.
const ProcNetUnix = "/proc/net/unix"

// AllowedSocket is a bound socket a sandboxed command may still connect to
// with the network on: one a command needs and that cannot drive the person's
// session or start anything outside the sandbox.
type AllowedSocket struct {
	// Path is the socket's absolute path as the kernel lists it.
	Path string
	// Why says what the socket serves and why it cannot drive a session.
	Why string
}

// AllowedSockets is the one allowlist of BoundSockets, applied only with the
// network on (with it off a command has no use for a name service). Docker,
// Podman, containerd, D-Bus, systemd's private socket, terminal multiplexers
// and editor servers are never on it.
var AllowedSockets = []AllowedSocket{
	// glibc's nss-resolve asks systemd-resolved over this varlink socket;
	// its interface (io.systemd.Resolve) only resolves names, addresses,
	// records and services — what the network being on already allows
	// through the DNS stub at 127.0.0.53. Hidden, a lookup through
	// nsswitch's "resolve [!UNAVAIL=return]" would fail instead of falling
	// back. The .Monitor socket beside it (every query of the machine) is
	// not allowed.
	{Path: "/run/systemd/resolve/io.systemd.Resolve", Why: "systemd-resolved's name lookups (nss-resolve)"},
}

// parseUnixSockets reads the kernel's list of Unix sockets (the format of
// ProcNetUnix) from r and returns the absolute pathname sockets — cleaned,
// without repeats, in the kernel's order — and the number of sockets bound to
// a relative name, which cannot be resolved (the kernel keeps the name as it
// was passed to bind(2), relative to the binder's directory at that time).
// Abstract names (shown with a leading '@') and unbound sockets are skipped:
// a mount namespace cannot hide an abstract name (a network namespace does).
// The path is the rest of the line after the seventh field, spaces included.
func parseUnixSockets(r io.Reader) (paths []string, relative int, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	seen := map[string]bool{}
	first := true
	for sc.Scan() {
		line := sc.Text()
		if first {
			first = false
			if strings.HasPrefix(line, "Num") {
				continue
			}
		}
		p, ok := seventhRest(line)
		if !ok || p == "" || p[0] == '@' {
			continue
		}
		if !filepath.IsAbs(p) {
			relative++
			continue
		}
		p = filepath.Clean(p)
		if !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, 0, fmt.Errorf("reading the list of Unix sockets: %w", err)
	}
	return paths, relative, nil
}

// seventhRest returns what follows the seventh space-separated field of line
// (and the blanks after it); ok is false when the line has fewer than seven.
func seventhRest(line string) (string, bool) {
	rest := line
	for i := 0; i < 7; i++ {
		rest = strings.TrimLeft(rest, " \t")
		if rest == "" {
			return "", false
		}
		end := strings.IndexAny(rest, " \t")
		if end < 0 {
			return "", i == 6
		}
		rest = rest[end:]
	}
	return strings.TrimLeft(rest, " \t"), true
}

// BoundSockets returns every pathname Unix socket bound in pincer's network
// namespace (ProcNetUnix, see parseUnixSockets) and the number bound to a
// relative name. Read in the parent before the sandbox's namespaces are made,
// so the host's list (a command with the network off sees only its own).
func BoundSockets() (paths []string, relative int, err error) {
	f, err := os.Open(ProcNetUnix)
	if err != nil {
		return nil, 0, fmt.Errorf("reading the list of Unix sockets: %w", err)
	}
	defer f.Close()
	return parseUnixSockets(f)
}

// foreignSockets returns the sockets of bound that a sandboxed command must
// not reach: each not inside one of own (the workspace roots, symlink-free)
// and, with network on, not in AllowedSockets. A socket is judged both by the
// path the kernel lists and by that path resolved (a symlinked directory on
// the way); one whose path no longer resolves is dropped (nothing there to
// connect to). Pure but for the symlink resolution.
func foreignSockets(bound, own []string, network bool) []string {
	var out []string
	for _, p := range bound {
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			continue
		}
		if network && allowedSocket(p) {
			continue
		}
		inOwn := false
		for _, o := range own {
			if within(o, real) {
				inOwn = true
				break
			}
		}
		if !inOwn {
			out = append(out, p)
		}
	}
	return out
}

// allowedSocket reports whether the socket the kernel lists as p is one of
// AllowedSockets (their directories are root's: no command binds there).
func allowedSocket(p string) bool {
	for _, a := range AllowedSockets {
		if a.Path == p {
			return true
		}
	}
	return false
}
