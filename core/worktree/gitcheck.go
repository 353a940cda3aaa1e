package worktree

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrTampered: the worktree's git state is not what pincer made — its HEAD
// names another branch, or a symbolic link (or another special file) stands
// where git writes — so pincer's own git, which runs outside the sandbox,
// does not write there.
var ErrTampered = errors.New("the worktree's git state was changed")

// checkGitState refuses (ErrTampered) to let pincer's own git write in wt
// when a session there (the model's commands may write the worktree's git
// dir, the branch's ref and reflog directories and the objects: see
// sandbox.GitShare) could redirect that write: HEAD must still be the
// worktree's branch (else a commit would move another branch, main
// included), and no symbolic link, FIFO, socket or device may stand in the
// worktree's git dir, on the branch's ref and reflog, or among the object
// directories (git writes COMMIT_EDITMSG, the reflogs and new objects through
// them, and would follow a link to any file of the person's).
func checkGitState(wt Worktree) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w (worktree %s): %s; pincer's git will not write there — discard the worktree, or repair it by hand", ErrTampered, wt.Name, fmt.Sprintf(format, a...))
	}
	dotgit, err := os.ReadFile(filepath.Join(wt.Path, ".git"))
	if err != nil {
		return bad("its .git file: %v", err)
	}
	if named, _ := strings.CutPrefix(strings.TrimSpace(string(dotgit)), "gitdir:"); filepath.Clean(strings.TrimSpace(named)) != wt.GitDir {
		return bad("its .git file no longer names %s", wt.GitDir)
	}
	head, err := os.ReadFile(filepath.Join(wt.GitDir, "HEAD"))
	if err != nil {
		return bad("its HEAD: %v", err)
	}
	if strings.TrimSpace(string(head)) != "ref: refs/heads/"+wt.Branch {
		return bad("its HEAD is %q, not the branch %s", strings.TrimSpace(string(head)), wt.Branch)
	}
	if err := plainTree(wt.GitDir); err != nil {
		return bad("%v", err)
	}
	for _, p := range []string{
		filepath.Join(wt.CommonDir, "refs", "heads", filepath.FromSlash(wt.Branch)),
		filepath.Join(wt.CommonDir, "logs", "refs", "heads", filepath.FromSlash(wt.Branch)),
	} {
		if err := plainPath(wt.CommonDir, p); err != nil {
			return bad("%v", err)
		}
	}
	objects := filepath.Join(wt.CommonDir, "objects")
	entries, err := os.ReadDir(objects)
	if err != nil {
		return bad("its objects: %v", err)
	}
	for _, e := range entries {
		if !e.IsDir() && !e.Type().IsRegular() {
			return bad("%s is a %s", filepath.Join(objects, e.Name()), kindOf(e.Type()))
		}
	}
	return nil
}

// plainTree fails when anything under dir is not a directory or a regular
// file.
func plainTree(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && !d.Type().IsRegular() {
			return fmt.Errorf("%s is a %s", p, kindOf(d.Type()))
		}
		return nil
	})
}

// plainPath fails when p, or a directory on the way to it below root, is a
// symbolic link or a special file; a p that does not exist is fine (git
// creates it).
func plainPath(root, p string) error {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return err
	}
	cur := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if !fi.IsDir() && !fi.Mode().IsRegular() {
			return fmt.Errorf("%s is a %s", cur, kindOf(fi.Mode()))
		}
	}
	return nil
}

// kindOf names a file type for a message.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}
