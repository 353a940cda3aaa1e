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

// SocketList is what BoundSockets found: the absolute pathname sockets —
// cleaned, without repeats, in the kernel's order — the number bound to a
// relative name, which cannot be resolved (the kernel keeps the name as it
// was passed to bind(2), relative to the binder's directory at that time),
// and notes on entries that could not be read exactly (degraded notes).
type SocketList struct {
	Paths    []string
	Relative int
	Notes    []string
}

// add files one socket name as the kernel holds it: abstract names (a
// leading NUL, or '@' in ProcNetUnix) and unbound sockets are skipped — a
// mount namespace cannot hide an abstract name (a network namespace does).
func (l *SocketList) add(name string, seen map[string]bool) {
	if name == "" || name[0] == '@' || name[0] == 0 {
		return
	}
	if !filepath.IsAbs(name) {
		l.Relative++
		return
	}
	p := filepath.Clean(name)
	if !seen[p] {
		seen[p] = true
		l.Paths = append(l.Paths, p)
	}
}

// parseUnixSockets reads the kernel's list of Unix sockets (the format of
// ProcNetUnix) from r; see SocketList. The path is the rest of the line after
// the seventh field, spaces included. The kernel prints a path's bytes raw,
// so a path holding a newline spans lines: a line that is not a record start
// (recordStart) continues the previous record's path, and each such path is
// named in a note (a path whose newline is followed by text shaped as a
// record cannot be told from two sockets here: BoundSockets reads the exact
// names over netlink first). A continuation line with no record before it is
// unparseable: counted in a note.
func parseUnixSockets(r io.Reader) (SocketList, error) {
	var l SocketList
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	var names []string
	cont := map[int]bool{}
	orphans := 0
	first := true
	for sc.Scan() {
		line := sc.Text()
		if first {
			first = false
			if strings.HasPrefix(line, "Num") {
				continue
			}
		}
		if p, ok := recordStart(line); ok {
			names = append(names, p)
			continue
		}
		if len(names) == 0 {
			orphans++
			continue
		}
		names[len(names)-1] += "\n" + line
		cont[len(names)-1] = true
	}
	if err := sc.Err(); err != nil {
		return SocketList{}, fmt.Errorf("reading the list of Unix sockets: %w", err)
	}
	seen := map[string]bool{}
	for i, n := range names {
		l.add(n, seen)
		if cont[i] {
			l.Notes = append(l.Notes, fmt.Sprintf("%s lists a Unix socket path holding a newline (%q): hidden as read, but such a path cannot be told apart from several sockets there", ProcNetUnix, n))
		}
	}
	if orphans > 0 {
		l.Notes = append(l.Notes, fmt.Sprintf("%d line(s) of %s could not be parsed: a Unix socket there may not be hidden", orphans, ProcNetUnix))
	}
	return l, nil
}

// recordStart returns the path of line when line starts a record of
// ProcNetUnix — "Num: RefCount Protocol Flags Type St Inode [Path]", the
// first field hex ending in ':', the next five hex, the inode decimal — and
// ok false otherwise (a line continuing a path that holds a newline).
func recordStart(line string) (path string, ok bool) {
	rest := line
	for i := 0; i < 7; i++ {
		rest = strings.TrimLeft(rest, " ")
		end := strings.IndexByte(rest, ' ')
		if end < 0 {
			end = len(rest)
		}
		f := rest[:end]
		switch {
		case i == 0:
			if !strings.HasSuffix(f, ":") || !allIn(f[:len(f)-1], "0123456789abcdefABCDEF") {
				return "", false
			}
		case i < 6:
			if !allIn(f, "0123456789abcdefABCDEF") {
				return "", false
			}
		default:
			if !allIn(f, "0123456789") {
				return "", false
			}
		}
		rest = rest[end:]
	}
	if rest == "" {
		return "", true
	}
	return strings.TrimLeft(rest, " "), true
}

// allIn reports whether s is non-empty and made only of bytes of set.
func allIn(s, set string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(set, s[i]) < 0 {
			return false
		}
	}
	return true
}

// BoundSockets returns every pathname Unix socket bound in pincer's network
// namespace (see SocketList). It asks the kernel over netlink sock_diag
// first (UNIX_DIAG_NAME: the exact bytes of each name, newlines included)
// and reads ProcNetUnix (parseUnixSockets) where that is not available (a
// kernel without unix_diag), with a note. Read in the parent before the
// sandbox's namespaces are made, so the host's list (a command with the
// network off sees only its own).
func BoundSockets() (SocketList, error) {
	names, derr := diagUnixNames()
	if derr == nil {
		var l SocketList
		seen := map[string]bool{}
		for _, n := range names {
			l.add(n, seen)
		}
		return l, nil
	}
	f, err := os.Open(ProcNetUnix)
	if err != nil {
		return SocketList{}, fmt.Errorf("reading the list of Unix sockets: %w", err)
	}
	defer f.Close()
	l, err := parseUnixSockets(f)
	return l, err
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
