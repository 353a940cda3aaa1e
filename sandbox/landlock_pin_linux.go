package sandbox

import (
	"errors"
	"fmt"
	"strconv"

	"golang.org/x/sys/unix"
)

// pinner opens the paths of Landlock rules before go-landlock does, so that
// what a rule covers is decided in one step: each path is opened with
// openat2's RESOLVE_NO_SYMLINKS (O_PATH), which fails when any component is
// a symlink, and handed to go-landlock as /proc/self/fd/N, whose open follows
// the descriptor to the very file opened, not the name. A command running
// meanwhile (a background shell swapping GOCACHE for a link to $HOME with
// renameat2's RENAME_EXCHANGE in a loop, red team r24 F2) cannot slip a link
// in between a check and the rule's open: there is no second lookup.
type pinner struct {
	fds []int
}

// errLinkInRule marks a planned rule path that holds a symlink when the
// helper opens it.
var errLinkInRule = errors.New("a symlink is in the way")

// pin returns paths (absolute) as /proc/self/fd/N names of descriptors
// opened without following any symlink; a missing path is left out (the
// rules ignore missing paths). Its errors: a path with a symlink on its way
// (wrapping errLinkInRule), or one that cannot be opened otherwise.
func (p *pinner) pin(paths []string) ([]string, error) {
	out := make([]string, 0, len(paths))
	for _, path := range paths {
		fd, err := unix.Openat2(unix.AT_FDCWD, path, &unix.OpenHow{
			Flags:   unix.O_PATH | unix.O_CLOEXEC,
			Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		})
		switch {
		case errors.Is(err, unix.ENOENT):
			continue
		case errors.Is(err, unix.ELOOP):
			return nil, fmt.Errorf("sandbox: %s: %w (it changed after the command was planned): refused", path, errLinkInRule)
		case err != nil:
			return nil, fmt.Errorf("sandbox: opening %s for its Landlock rule: %w", path, err)
		}
		p.fds = append(p.fds, fd)
		out = append(out, "/proc/self/fd/"+strconv.Itoa(fd))
	}
	return out, nil
}

// close closes every descriptor pin opened.
func (p *pinner) close() {
	for _, fd := range p.fds {
		_ = unix.Close(fd)
	}
	p.fds = nil
}
