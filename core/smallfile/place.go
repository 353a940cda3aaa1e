package smallfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Place is where a file is read from, and so where it may lead: the rules a
// path must meet, symlinks resolved, before Place.Read opens it. Build it with
// permission.ProjectFiles or permission.UserFiles (which know the hidden
// locations), the one place those rules are composed.
type Place struct {
	// Root, when not empty, is the workspace root: the file must resolve
	// (every symbolic link followed, in any component) inside it, as
	// core/config reads .claude/settings.local.json. Empty for the user's own
	// files (~/.claude/skills, ~/.claude/commands), which may link elsewhere.
	Root string
	// Hidden reports whether an absolute, resolved path lies in a location no
	// file pincer reads may lead into: the credentials locations
	// (sandbox.HomeSecrets) and pincer's own configuration, data and run
	// directories. A path named inside such a location (pincer's own
	// $PINCER_HOME/AGENTS.md) is read; a link from outside into one is not.
	// Nil: none.
	Hidden func(path string) bool
}

// Resolve returns path's real location (symlinks resolved) or an error
// naming path and why it is refused: a link out of Root, into a hidden
// location, or to a kernel file system's file (by path: /proc, /sys, /dev;
// Open checks the descriptor's file system too).
func (p Place) Resolve(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	if p.Root != "" {
		root := p.Root
		if r, err := filepath.EvalSymlinks(root); err == nil {
			root = r
		}
		if !Within(root, real) {
			return "", fmt.Errorf("%s: a symbolic link to %s, outside the workspace (pincer reads a project's files only from the project): %w", path, real, ErrRefused)
		}
	}
	if p.Hidden != nil && p.Hidden(real) && !p.Hidden(abs) {
		return "", fmt.Errorf("%s: a symbolic link to %s, a credentials location or pincer's own data: %w", path, real, ErrRefused)
	}
	for _, k := range []string{"/proc", "/sys", "/dev"} {
		if Within(k, real) && !Within(k, abs) {
			return "", fmt.Errorf("%s: a symbolic link to %s, a file of the kernel, not of the project: %w", path, real, ErrRefused)
		}
	}
	return real, nil
}

// Read is smallfile.Read of path after Resolve: the resolved file is opened
// (O_NOFOLLOW on its last component) and checked as Open does.
func (p Place) Read(path string, max int64) ([]byte, error) {
	f, err := p.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCapped(f, path, max)
}

// Open is Open of path after Resolve; errors name path.
func (p Place) Open(path string) (*os.File, error) {
	real, err := p.Resolve(path)
	if err != nil {
		return nil, err
	}
	f, err := openFlags(real, oNoFollow)
	if err != nil {
		if pe, ok := err.(*os.PathError); ok {
			pe.Path = path
			return nil, pe
		}
		return nil, fmt.Errorf("%s: %w", path, unwrapNamed(err, real))
	}
	if p.Root != "" {
		// A hard link has no target to check: a project's file with a second
		// name may be ~/.ssh/id_rsa itself (red team 2: `ln ~/.ssh/id_rsa
		// AGENTS.md`). git never checks one out; pincer reads only files of one name.
		var st syscall.Stat_t
		if err := syscall.Fstat(int(f.Fd()), &st); err == nil && st.Nlink > 1 {
			f.Close()
			return nil, fmt.Errorf("%s: a hard link (%d names; pincer reads a project's files only when they have one): %w", path, st.Nlink, ErrRefused)
		}
	}
	return f, nil
}

// Within reports whether path is root or inside it (both clean and absolute).
func Within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// namedErr is an error whose text no longer starts with the resolved path.
type namedErr struct {
	msg string
	err error
}

func (e namedErr) Error() string { return e.msg }
func (e namedErr) Unwrap() error { return e.err }

// unwrapNamed drops the leading "real: " of err's text, keeping what it wraps.
func unwrapNamed(err error, real string) error {
	return namedErr{strings.TrimPrefix(err.Error(), real+": "), errors.Unwrap(err)}
}
