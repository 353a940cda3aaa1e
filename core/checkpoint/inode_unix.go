//go:build unix

package checkpoint

import (
	"io/fs"
	"syscall"
)

// inode is fi's inode number, 0 when the system does not say.
func inode(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino) //nolint:unconvert // uint32 on some systems
	}
	return 0
}

// syscallENOTDIR is the error of a path through a file (a/b where a is a
// file): the path is absent.
const syscallENOTDIR = syscall.ENOTDIR
