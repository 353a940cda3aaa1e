package sandbox

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// DescribeProtected returns one line per protected path of root (rel as in
// Policy.ReadOnlyInWorkspace; nil means ProtectedInWorkspace), saying how the
// sandbox keeps it, given what the machine can do (r):
//
//	.git/config: present, mounted read-only
//	.claude/: absent, guarded by quarantine (moved away if a command creates it)
//
// It is what `pincer doctor` shows for the current workspace.
func DescribeProtected(root string, rel []string, r Report) []string {
	if rel == nil {
		rel = ProtectedInWorkspace
	}
	var out []string
	seen := map[string]bool{}
	for _, pattern := range withGitDirs(root, rel) {
		paths := expandProtected(root, []string{pattern})
		if len(paths) == 0 {
			out = append(out, fmt.Sprintf("%s: none", pattern))
			continue
		}
		for _, p := range paths {
			if seen[p] {
				continue
			}
			seen[p] = true
			name, _ := filepath.Rel(root, p)
			out = append(out, name+": "+protectedState(root, p, r))
		}
	}
	return out
}

// protectedState describes how p is protected.
func protectedState(root, p string, r Report) string {
	fi, err := os.Lstat(p)
	rel, _ := filepath.Rel(root, p)
	switch {
	case err != nil && slices.Contains(makeDirsInWorkspace, filepath.ToSlash(rel)) && isDirPath(filepath.Dir(p)):
		if r.MountNamespace {
			return "absent, created empty and mounted read-only at the next command"
		}
		return "absent, created empty and kept read-only by Landlock at the next command"
	case err != nil:
		return QuarantinedState
	case fi.Mode()&fs.ModeSymlink != 0:
		return "a symlink: its target is protected, and the link is put back if a command replaces it"
	case r.MountNamespace:
		return "present, mounted read-only"
	case r.LandlockABI > 0:
		return "present, kept read-only by Landlock (carved out of the writable workspace)"
	}
	return "present, NOT protected (no mount namespace, no Landlock)"
}

// QuarantinedState is DescribeProtected's state of a protected path that is
// absent and guarded by the quarantine after each command; doctor counts
// these lines rather than listing them (--verbose lists them).
const QuarantinedState = "absent, guarded by quarantine (moved away if a command creates it)"

// isDirPath reports whether p is a directory, not following a final symlink.
func isDirPath(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}

// DescribeHidden returns one line per default hidden path (DefaultHiddenPaths):
// whether it exists, and so is covered, given what the machine can do (r).
func DescribeHidden(r Report) []string {
	var out []string
	for _, p := range DefaultHiddenPaths() {
		state := "absent"
		if _, err := os.Stat(p); err == nil {
			state = "hidden (an empty read-only tmpfs or /dev/null over it)"
			if !r.MountNamespace {
				state = "present and READABLE by commands (no mount namespace)"
			}
		}
		out = append(out, p+": "+state)
	}
	return out
}
