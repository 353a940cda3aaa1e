// Package smallfile reads the small state files pincer reads before it shows
// anything (the kept workbench layout, the trust record): only a regular file,
// only up to a size, never blocking. A FIFO (or a device) put at such a path
// would otherwise hang the start — a read of a FIFO waits for a writer, and a
// process blocked there before its first frame answers no key.
package smallfile

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// Read returns the contents of the regular file at path, at most max bytes.
// The file is opened with O_NONBLOCK (so opening a FIFO returns at once) and
// checked with fstat on the open descriptor (so the file checked is the file
// read). A missing file is the os error (errors.Is fs.ErrNotExist); anything
// but a regular file, or a file longer than max bytes, is an error naming it.
func Read(path string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: larger than %d bytes: not read", path, max)
	}
	return data, nil
}

// Open opens the regular file at path for reading, as Read does (O_NONBLOCK,
// then fstat of the descriptor): a path that is, or was swapped for, a FIFO or
// a device between a caller's Stat and this open is an error, not a read that
// blocks. The caller closes the file.
func Open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s: not a regular file (%s): not read", path, st.Mode().Type())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
