package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// plan turns e.Policy and what the machine can do into an execPlan.
func (e *Executor) plan() (execPlan, error) {
	helper := e.helper()
	if err := checkHelper(helper); err != nil {
		return execPlan{}, err
	}
	probe := e.probe
	if probe == nil {
		probe = probeWith
	}
	r := probe(helper)
	pol := e.Policy
	spec := helperSpec{CPUSeconds: pol.cpuSeconds(), FileSize: pol.fileSize(), MaxProcesses: pol.maxProcesses()}
	if err := readConfineCheck(pol, r); err != nil {
		return execPlan{report: r}, err
	}
	if !pol.Enabled {
		return execPlan{spec: spec, report: r}, nil
	}
	if r.LandlockABI == 0 {
		if pol.RequireLandlock {
			return execPlan{report: r}, fmt.Errorf("sandbox: the policy requires Landlock, which is unavailable here: %s", r.LandlockError)
		}
		r.Degraded = append(r.Degraded, fmt.Sprintf("Landlock unavailable (%s): commands can write wherever pincer can", r.LandlockError))
	} else if r.LandlockABI < 3 {
		r.Degraded = append(r.Degraded, fmt.Sprintf("Landlock ABI %d: truncate(2) of files outside the writable roots is not blocked", r.LandlockABI))
	}
	spec.Landlock = true
	spec.RequireLandlock = pol.RequireLandlock
	spec.Network = pol.Network
	spec.DropCaps = true

	trees, guard, notes, err := e.trees()
	if err != nil {
		return execPlan{report: r}, err
	}
	spec.Trees = trees
	r.Degraded = append(r.Degraded, notes...)

	var flags uintptr
	hide := append(DefaultHiddenPaths(), expandHome(pol.HiddenPaths)...)
	// Daemons that start processes outside the sandbox are hidden with the
	// network on too: by their known paths (a socket bound in another
	// network namespace, as a container's mounted docker.sock, is not in
	// the kernel's list) and with every other bound socket below.
	hide = append(hide, DaemonSockets()...)
	bound, err := BoundSockets()
	r.Degraded = append(r.Degraded, bound.Notes...)
	if err != nil {
		r.Degraded = append(r.Degraded, fmt.Sprintf("%v: Unix sockets at paths pincer does not know of (a tmux -S elsewhere) can be connected to", err))
	}
	if bound.Relative > 0 {
		r.Degraded = append(r.Degraded, fmt.Sprintf("%d Unix socket(s) bound to a relative name cannot be located and are not hidden", bound.Relative))
	}
	hide = append(hide, foreignSockets(bound.Paths, e.ownRoots(), pol.Network)...)
	claudeDirs, claudeFiles, err := claudeUserPaths(homeDir(), trees)
	if err != nil {
		return execPlan{report: r}, err
	}
	hide = append(append(hide, claudeDirs...), claudeFiles...)
	own, err := ensurePincerDirs(append(activePincerDirs(os.Getenv, homeDir()), claudeDirs...), trees)
	if err != nil {
		return execPlan{report: r}, err
	}
	hidden := hiddenFor(hide, e.visible(trees), treePaths(trees))
	sealed := e.gitSeals(trees)
	unpinSealed(spec.Trees, sealed)
	if pol.ConfineReads {
		spec.ConfineReads, spec.RequireLandlock = true, true
		spec.ReadDirs, spec.ReadFiles = e.confinedReads(trees, sealed, guard)
	}
	// With a mount namespace every command gets one, if only for its
	// private /dev/shm (privateDevShm).
	if r.MountNamespace {
		spec.MountNS = true
		spec.Hidden = hidden
		spec.Sealed = sealed
		flags |= syscall.CLONE_NEWNS
	} else {
		r.Degraded = append(r.Degraded, fmt.Sprintf("no mount namespace (%s): /dev/shm is the host's, readable and writable by commands", r.MountNamespaceError))
		if slices.ContainsFunc(trees, func(t treeSpec) bool { return t.Mount && len(t.ReadOnly) > 0 }) || len(hidden) > 0 || len(sealed) > 0 {
			if len(sealed) > 0 {
				spec.Trees, _ = carvePincerDirs(spec.Trees, sealed)
				r.Degraded = append(r.Degraded, fmt.Sprintf("the main repository %s of this worktree lies in a writable root: without a mount namespace it is kept read-only by Landlock rules alone, so the directories on the way there accept no new entries", strings.Join(sealed, ", ")))
			}
			r.Degraded = append(r.Degraded, fmt.Sprintf("no mount namespace (%s): protected paths are kept read-only by Landlock rules alone, so the workspace root accepts no new entries and git cannot write .git itself (git add and commit fail); ~/.ssh, pincer's secrets and the other hidden paths are readable, and the session sockets (tmux, screen, X11, Wayland, editor servers) and every other bound Unix socket can be connected to unless the network is off and Landlock is ABI 9+", r.MountNamespaceError))
			var carved []string
			spec.Trees, carved = carvePincerDirs(spec.Trees, append(own, claudeFiles...))
			if len(carved) > 0 {
				r.Degraded = append(r.Degraded, fmt.Sprintf("pincer's own directories %s lie in a writable root: without a mount namespace they are kept read-only by Landlock rules alone, so the directories on the way there accept no new entries", strings.Join(carved, ", ")))
			}
		}
	}
	switch {
	case r.PIDNamespace && r.MountNamespace:
		// A PID namespace needs a /proc of its own: the host's would show
		// other processes (and their /proc/PID/root), and Go's all-thread
		// syscalls (Landlock) read /proc/self/task, which must be the helper.
		spec.PidNS = true
		flags |= syscall.CLONE_NEWPID | syscall.CLONE_NEWNS
	case r.PIDNamespace:
		r.Degraded = append(r.Degraded, "no PID namespace (it needs a mount namespace for its /proc): background processes (setsid, nohup) outlive the command")
	default:
		r.Degraded = append(r.Degraded, fmt.Sprintf("no PID namespace (%s): background processes (setsid, nohup) outlive the command", r.PIDNamespaceError))
	}
	if !pol.Network {
		switch {
		case r.NetNamespace:
			spec.NetNS = true
			flags |= syscall.CLONE_NEWNET
		case r.LandlockABI >= 4:
			spec.DenyTCP = true
			r.Degraded = append(r.Degraded, fmt.Sprintf("no network namespace (%s): only TCP is blocked (by Landlock); other protocols still reach the network, and no TCP server can be started", r.NetNamespaceError))
		default:
			r.Degraded = append(r.Degraded, fmt.Sprintf("network NOT cut: no network namespace (%s) and no Landlock network rules (ABI 4+)", r.NetNamespaceError))
		}
	}
	p := execPlan{spec: spec, report: r, guard: true}
	userNS := r.UserNamespace
	p.prepare = func(cmd *exec.Cmd) {
		// The helper dies with the thread that started it (Run keeps that
		// thread locked until the command ends), and with the helper its PID
		// namespace: nothing the command started survives pincer.
		cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
		if flags != 0 {
			applyNamespaces(cmd.SysProcAttr, flags, userNS)
		}
	}
	return p, nil
}

// visible returns the paths hiding must leave visible: the writable trees
// (workspace roots, temp dirs, caches, configured roots), every directory
// added to the workspace (the session's spill directory, also when it lies
// inside the root) and the working directory.
func (e *Executor) visible(trees []treeSpec) []string {
	var out []string
	for _, t := range trees {
		out = append(out, t.Path)
	}
	if e.Workspace != nil {
		out = append(out, e.Workspace.GrantedDirs()...)
	}
	if wd, err := os.Getwd(); err == nil {
		if real, err := filepath.EvalSymlinks(wd); err == nil {
			out = append(out, real)
		}
	}
	return dedupe(out)
}

// ownRoots returns the workspace roots, symlink-free: the sandbox's own
// trees, whose bound sockets a command may reach (its background server's).
func (e *Executor) ownRoots() []string {
	if e.Workspace == nil {
		return nil
	}
	var out []string
	for _, r := range e.Workspace.Roots() {
		if real, err := filepath.EvalSymlinks(r); err == nil {
			out = append(out, real)
		}
	}
	return out
}

// expandHome makes "~/x" entries absolute under the home directory.
func expandHome(paths []string) []string {
	home, _ := os.UserHomeDir()
	var out []string
	for _, p := range paths {
		if rest, ok := strings.CutPrefix(p, "~/"); ok {
			if home == "" {
				continue
			}
			p = filepath.Join(home, rest)
		}
		out = append(out, p)
	}
	return out
}

// trees returns the writable trees of the policy: each workspace root (with its
// protected paths, which bind mounts may protect), the temp dirs, the toolchain
// caches and the configured roots; the guard over them (see pathGuard), which
// resolved the temp dirs, caches and configured roots and resolves what
// confinedReads takes; and a note for each path that could not be used. A
// workspace root (symlink-free when it was chosen) with a symlink in its way
// now is an error: nothing runs.
func (e *Executor) trees() ([]treeSpec, pathGuard, []string, error) {
	pol := e.Policy
	var trees []treeSpec
	var notes []string
	if e.Workspace != nil {
		for _, root := range e.Workspace.Roots() {
			if err := componentsPlain(root); err != nil {
				return nil, pathGuard{}, nil, fmt.Errorf("workspace root %s: %w", root, err)
			}
			trees = append(trees, workspaceTree(root, pol.readOnly()))
		}
		if g, ok := e.Workspace.SharedGit(); ok {
			trees = append(trees, gitShareTrees(g)...)
		}
	}
	temps := []string{os.TempDir(), "/tmp"}
	var roots []string
	for _, w := range pol.WritableRoots {
		abs, err := filepath.Abs(w)
		if err != nil {
			notes = append(notes, fmt.Sprintf("writable root %s skipped: %v", w, err))
			continue
		}
		roots = append(roots, abs)
	}
	var caches []string
	if !pol.NoCacheRoots { // finding them may run `go env` (TrustOwnPATH's first pass must not)
		caches = cachePaths()
	}
	guard := newPathGuard(slices.Concat(treePaths(trees), temps, caches, treePaths(cacheCandidates()), roots))
	for _, dir := range temps {
		if real, err := guard.resolve(dir); err == nil {
			trees = append(trees, treeSpec{Path: real})
		} else if !errors.Is(err, fs.ErrNotExist) {
			notes = append(notes, fmt.Sprintf("temp dir %s skipped: %v", dir, err))
		}
	}
	if !pol.NoCacheRoots {
		caches, cacheNotes := toolchainCaches(guard)
		trees = append(trees, caches...)
		notes = append(notes, cacheNotes...)
	}
	for _, abs := range roots {
		real, err := guard.resolve(abs)
		if err != nil {
			notes = append(notes, fmt.Sprintf("writable root %s skipped: %v", abs, err))
			continue
		}
		trees = append(trees, treeSpec{Path: real})
	}
	return trees, guard, notes, nil
}

// workspaceTree is the writable tree of one workspace root with the protected
// relative paths rel (expanded, see expandProtected). A protected path reached
// through a symlink is listed both as written and as resolved (the target may
// lie in another writable tree). The protected directories of
// makeDirsInWorkspace are created when missing (and their parent exists), so
// that they can be bind-mounted.
func workspaceTree(root string, rel []string) treeSpec {
	t := treeSpec{Path: root, Mount: true}
	if len(rel) > 0 {
		// A .git file (a linked worktree's or a submodule's checkout) names
		// the git dir, and so the config git runs: keep it as it is.
		if fi, err := os.Lstat(filepath.Join(root, ".git")); err == nil && fi.Mode().IsRegular() {
			t.ReadOnly = append(t.ReadOnly, filepath.Join(root, ".git"))
		}
	}
	links := map[string]bool{} // lstat cache: is this component a symlink
	for _, p := range expandProtected(root, withGitDirs(root, rel)) {
		t.ReadOnly = append(t.ReadOnly, p)
		if linkBelow(root, p, links) {
			hops := 0
			if real, err := resolveReal(p, &hops); err == nil && real != p {
				t.ReadOnly = append(t.ReadOnly, real)
			}
		}
		if r, err := filepath.Rel(root, p); err == nil && slices.Contains(makeDirsInWorkspace, filepath.ToSlash(r)) {
			// Made here, before the command and its quarantine check, so
			// that it is not taken for something the command created.
			if isDir(filepath.Dir(p)) {
				_ = os.Mkdir(p, 0o755)
			}
			t.MakeDirs = append(t.MakeDirs, p)
		}
	}
	return t
}

// linkBelow reports whether a component of p below root (which is
// symlink-free) is a symlink, caching each component's answer in links.
func linkBelow(root, p string, links map[string]bool) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return true
	}
	cur := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, part)
		link, ok := links[cur]
		if !ok {
			fi, err := os.Lstat(cur)
			if err != nil {
				links[cur] = false
				return false // missing: nothing further down exists
			}
			link = fi.Mode()&os.ModeSymlink != 0
			links[cur] = link
		}
		if link {
			return true
		}
	}
	return false
}

// applyNamespaces makes the helper start in new namespaces (flags). With
// userNS (an unprivileged pincer, or root without CAP_SYS_ADMIN in a
// container) they are created inside a new user namespace that maps pincer's
// own uid and gid, and the helper gets the capabilities it needs there
// (mounting, bringing up loopback, emptying the bounding set) as ambient ones;
// it clears them before it runs the command.
func applyNamespaces(attr *syscall.SysProcAttr, flags uintptr, userNS bool) {
	attr.Cloneflags |= flags
	if !userNS {
		return
	}
	attr.Cloneflags |= syscall.CLONE_NEWUSER
	attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Geteuid(), HostID: os.Geteuid(), Size: 1}}
	attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getegid(), HostID: os.Getegid(), Size: 1}}
	attr.GidMappingsEnableSetgroups = false
	attr.AmbientCaps = []uintptr{capSysAdmin, capNetAdmin, capSetPCap}
}

// Capability numbers (linux/capability.h).
const (
	capSetPCap  = 8 // to empty the bounding set before the command runs
	capNetAdmin = 12
	capSysAdmin = 21
)
