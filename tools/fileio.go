package tools

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"pincer/sandbox"
)

// The file tools reach files only through the helpers in this file, which go
// through sandbox.Workspace's os.Root-based operations (Open, WriteFileAtomic,
// MkdirAll, ...): a path is checked by Resolve for the message, and then
// opened by the kernel one component at a time beneath the workspace root or
// added directory, so nothing swapped in between (a directory replaced by a
// symlink to the outside) is followed out — issue 10's check-then-use race.

// errIsDir and errNotRegular are what openRegular returns for a directory and
// for another non-regular file (a FIFO, a device, a socket).
var (
	errIsDir      = errors.New("is a directory")
	errNotRegular = errors.New("is not a regular file")
)

// openRegular opens abs for reading and returns it with its fstat: through the
// workspace, or — outside true, for a read the permission layer approved for
// this call (FileState.OutsideGranted) — directly, without following a final
// symlink. The open never blocks on a FIFO (O_NONBLOCK); a directory or other
// non-regular file is closed and reported as errIsDir or errNotRegular. The
// caller closes the file.
func openRegular(env *Env, abs string, outside bool) (*os.File, fs.FileInfo, error) {
	flag := os.O_RDONLY | syscall.O_NONBLOCK
	var f *os.File
	var err error
	if outside {
		f, err = os.OpenFile(abs, flag|syscall.O_NOFOLLOW, 0)
	} else {
		f, err = env.Workspace.Open(abs, flag, 0)
	}
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
	case fi.IsDir():
		err = errIsDir
	case !fi.Mode().IsRegular():
		err = errNotRegular
	default:
		err = hiddenLinkErr(abs, fi)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// hiddenLinkErr refuses the open file abs (its fstat fi) when it is a hard
// link to a file the sandbox hides (sandbox.HardLinkToHidden, LinkHidden): the
// tools' own check behind the permission layer's up-front denial, as for a
// symlink to one. A LinkUnknown file was asked about by the permission layer
// and approved, so it opens.
func hiddenLinkErr(abs string, fi fs.FileInfo) error {
	if v, where := sandbox.HardLinkToHidden(fi); v == sandbox.LinkHidden {
		return fmt.Errorf("%s is a hard link to %s, which the sandbox hides from every command; pincer's file tools never read it", abs, where)
	}
	return nil
}

// readAllOf reads f to the end, into a buffer sized from the fstat size (a
// file that grows while read is still read whole); with limit > 0 a file that
// grew past limit bytes is an error.
func readAllOf(f *os.File, size, limit int64) ([]byte, error) {
	if size < 0 || (limit > 0 && size > limit) {
		size = 0
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+1)) // +1: EOF seen without growing
	var r io.Reader = f
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
	}
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	if limit > 0 && int64(buf.Len()) > limit {
		return nil, fmt.Errorf("the file grew past %d bytes while being read", limit)
	}
	return buf.Bytes(), nil
}

// readExisting returns the content and mode of the regular file abs (through
// the workspace), or existed false when it does not exist. shown names it in
// errors.
func readExisting(env *Env, abs, shown string) (content []byte, fi fs.FileInfo, existed bool, err error) {
	f, fi, err := openRegular(env, abs, false)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, false, nil
	case errors.Is(err, errIsDir):
		return nil, nil, true, fmt.Errorf("%s is a directory, not a file", shown)
	case errors.Is(err, errNotRegular):
		return nil, nil, true, fmt.Errorf("%s is not a regular file", shown)
	case err != nil:
		return nil, nil, false, err
	}
	defer f.Close()
	content, err = readAllOf(f, fi.Size(), 0)
	if err != nil {
		return nil, nil, true, err
	}
	return content, fi, true, nil
}

// writeFile creates abs's parent directories and replaces abs with data
// atomically (temp file + rename, sandbox.Workspace.WriteFileAtomic), all
// through the workspace. Replacing the directory entry, not the inode, means
// that a hard link to the old file (from outside the workspace, say) is never
// written through; a replaced file keeps its permission bits, a new one gets
// perm through the umask.
func writeFile(env *Env, abs string, data []byte, perm fs.FileMode) error {
	if err := env.Workspace.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return err
	}
	return env.Workspace.WriteFileAtomic(abs, data, perm)
}

// recordWritten notes in the session's FileState that abs now holds data,
// with its modification time read back through the workspace.
func recordWritten(env *Env, abs string, data []byte) {
	var mod time.Time
	if fi, err := env.Workspace.Stat(abs); err == nil {
		mod = fi.ModTime()
	}
	env.Files.Record(abs, HashContent(data), mod)
}

// grantedOutside returns the real location of p when it lies outside the
// workspace and the permission layer approved reading it for this call
// (FileState.GrantOutside); ok is false otherwise.
func grantedOutside(env *Env, p string) (real string, ok bool) {
	if env == nil || env.Workspace == nil || env.Files == nil || p == "" {
		return "", false
	}
	real, err := env.Workspace.Real(p)
	if err != nil || env.Workspace.Contains(real) || !env.Files.OutsideGranted(env.ToolCallID, real) || hiddenOutside(real) {
		return "", false
	}
	return real, true
}

// hiddenOutside reports whether the real path abs is, or lies in, or (a
// directory to search) holds one of the paths the sandbox hides from every
// command (sandbox.DefaultHiddenPaths: credentials, pincer's own directories).
// The permission layer denies such reads up front; this is the tools' own
// check, so that no grant can open one.
func hiddenOutside(abs string) bool {
	for _, h := range sandbox.DefaultHiddenPaths() {
		for _, c := range []string{h, realOr(h)} {
			if within(abs, c) || within(c, abs) && exists(c) {
				return true
			}
		}
	}
	return false
}

// within reports whether the clean absolute path p is dir or lies below it.
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// realOr returns p with its symlinks resolved, or p when it cannot be.
func realOr(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// exists reports whether something (even a dangling link) is at p.
func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// searchSpace resolves the directory (or file) p that Glob or Grep searches
// and returns the workspace to read it through: env's, or — for a search
// outside it that the permission layer approved for this call — a workspace
// rooted at the approved directory (at a file's directory, for a file), so
// that the walk still never leaves what was approved. A path outside and not
// approved gets Resolve's error.
func searchSpace(env *Env, p string) (*sandbox.Workspace, string, error) {
	abs, err := env.Workspace.Resolve(p)
	if err == nil {
		return env.Workspace, abs, nil
	}
	real, ok := grantedOutside(env, p)
	if !ok {
		return nil, "", err
	}
	base := real
	if fi, serr := os.Lstat(real); serr == nil && !fi.IsDir() {
		base = filepath.Dir(real)
	}
	ws, werr := sandbox.NewWorkspace(base)
	if werr != nil {
		return nil, "", err
	}
	return ws, real, nil
}
