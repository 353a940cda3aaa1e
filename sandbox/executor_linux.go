package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
	spec := helperSpec{CPUSeconds: pol.cpuSeconds(), FileSize: pol.fileSize()}
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

	trees, notes := e.trees()
	spec.Trees = trees
	r.Degraded = append(r.Degraded, notes...)

	var flags uintptr
	if slices.ContainsFunc(trees, func(t treeSpec) bool { return t.Mount && len(t.ReadOnly) > 0 }) {
		if r.MountNamespace {
			spec.MountNS = true
			flags |= syscall.CLONE_NEWNS
		} else {
			r.Degraded = append(r.Degraded, fmt.Sprintf("no mount namespace (%s): protected paths are kept read-only by Landlock rules alone, so the workspace root accepts no new entries and git cannot write .git itself (git add and commit fail)", r.MountNamespaceError))
		}
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
	p := execPlan{spec: spec, report: r}
	if flags != 0 {
		userNS := r.UserNamespace
		p.prepare = func(cmd *exec.Cmd) { applyNamespaces(cmd.SysProcAttr, flags, userNS) }
	}
	return p, nil
}

// trees returns the writable trees of the policy: each workspace root (with its
// protected paths, which bind mounts may protect), the temp dirs, the toolchain
// caches and the configured roots; and a note for each configured root that
// could not be used.
func (e *Executor) trees() ([]treeSpec, []string) {
	pol := e.Policy
	var trees []treeSpec
	var notes []string
	if e.Workspace != nil {
		for _, root := range e.Workspace.Roots() {
			trees = append(trees, workspaceTree(root, pol.readOnly()))
		}
	}
	for _, dir := range []string{os.TempDir(), "/tmp"} {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			trees = append(trees, treeSpec{Path: real})
		}
	}
	if !pol.NoCacheRoots {
		trees = append(trees, toolchainCaches()...)
	}
	for _, w := range pol.WritableRoots {
		abs, err := filepath.Abs(w)
		if err == nil {
			abs, err = filepath.EvalSymlinks(abs)
		}
		if err != nil {
			notes = append(notes, fmt.Sprintf("writable root %s skipped: %v", w, err))
			continue
		}
		trees = append(trees, treeSpec{Path: abs})
	}
	return trees, notes
}

// workspaceTree is the writable tree of one workspace root with the protected
// relative paths rel. A protected path reached through a symlink is listed
// both as written and as resolved (the target may lie in another writable
// tree). The default protected directories are created when missing, so that
// they can be bind-mounted.
func workspaceTree(root string, rel []string) treeSpec {
	t := treeSpec{Path: root, Mount: true}
	for _, r := range rel {
		p := filepath.Join(root, r)
		if !within(root, p) {
			continue // ".." out of the root: not ours to protect
		}
		t.ReadOnly = append(t.ReadOnly, p)
		hops := 0
		if real, err := resolveReal(p, &hops); err == nil && real != p {
			t.ReadOnly = append(t.ReadOnly, real)
		}
		if slices.Contains(DefaultReadOnlyInWorkspace, filepath.ToSlash(filepath.Clean(r))) {
			t.MakeDirs = append(t.MakeDirs, p)
		}
	}
	return t
}

// applyNamespaces makes the helper start in new namespaces (flags). With
// userNS (an unprivileged pincer, or root without CAP_SYS_ADMIN in a
// container) they are created inside a new user namespace that maps pincer's
// own uid and gid, and the helper gets the two capabilities it needs there
// (mounting, bringing up loopback) as ambient ones; it clears them before it
// executes the command.
func applyNamespaces(attr *syscall.SysProcAttr, flags uintptr, userNS bool) {
	attr.Cloneflags |= flags
	if !userNS {
		return
	}
	attr.Cloneflags |= syscall.CLONE_NEWUSER
	attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Geteuid(), HostID: os.Geteuid(), Size: 1}}
	attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getegid(), HostID: os.Getegid(), Size: 1}}
	attr.GidMappingsEnableSetgroups = false
	attr.AmbientCaps = []uintptr{capSysAdmin, capNetAdmin}
}

// Capability numbers (linux/capability.h).
const (
	capNetAdmin = 12
	capSysAdmin = 21
)
