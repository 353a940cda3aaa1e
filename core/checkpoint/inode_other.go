//go:build !unix

package checkpoint

import (
	"errors"
	"io/fs"
)

// inode is 0 where the system has no inode numbers (size and mtime decide).
func inode(fs.FileInfo) uint64 { return 0 }

// syscallENOTDIR never matches where there is no ENOTDIR.
var syscallENOTDIR = errors.New("no ENOTDIR")
