package memory

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"pincer/core/smallfile"
)

// Caps of the memory files' text a Snapshot includes (bytes): each file's
// first MaxSnapshotFileBytes, all of them together MaxSnapshotFilesBytes.
// The file tools refuse pincer's config and data dirs (sandbox.PincerDirs),
// so the model cannot Read a memory file: what it knows of one is this.
const (
	MaxSnapshotFileBytes  = 4 << 10
	MaxSnapshotFilesBytes = 25 << 10
)

// SnapshotFile is one indexed memory file as a Snapshot includes it: its
// link (as the index gives it, relative to the index's dir), its text
// (capped at MaxSnapshotFileBytes or what was left of the total) and
// whether it was cut.
type SnapshotFile struct {
	Link, Text string
	Cut        bool
}

// indexedFiles reads the files the lines of index link to (linkOf: a
// relative ".md" path without ".."), below dir, in index order, each once,
// within what is left of budget (bytes; lowered as it is spent, -1 once a
// file was left out for it). A link
// that is a symlink, not a regular file or missing is left out; no
// component is followed through a symlink.
func indexedFiles(dir, index string, budget *int) []SnapshotFile {
	var out []SnapshotFile
	seen := map[string]bool{}
	for _, line := range strings.Split(index, "\n") {
		link := linkOf(line)
		if link == "" || seen[link] || filepath.IsAbs(link) {
			continue
		}
		if *budget <= 0 {
			*budget = -1 // one was left out
			continue
		}
		seen[link] = true
		data, err := readBelow(dir, link, MaxSnapshotFileBytes+1)
		if err != nil || strings.TrimSpace(data) == "" {
			continue
		}
		f := SnapshotFile{Link: link}
		limit := min(MaxSnapshotFileBytes, *budget)
		f.Text, f.Cut = data, len(data) > limit
		if f.Cut {
			f.Text = cutAtRune(data, limit)
		}
		*budget -= len(f.Text)
		out = append(out, f)
	}
	return out
}

// readBelow reads at most max bytes of the file rel (slash-separated) below
// dir, opening every component with O_NOFOLLOW (a symlink anywhere below
// dir is refused) and only a regular file at the end.
func readBelow(dir, rel string, max int) (string, error) {
	top, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", err
	}
	defer unix.Close(top)
	parts := strings.Split(rel, "/")
	fd, _, err := smallfile.WalkDirs(top, parts[:len(parts)-1], 0)
	if err != nil {
		return "", err
	}
	ffd, err := unix.Openat(fd, parts[len(parts)-1], unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	unix.Close(fd)
	if err != nil {
		return "", err
	}
	f := os.NewFile(uintptr(ffd), rel)
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", rel)
	}
	buf := make([]byte, max)
	n, err := io.ReadFull(f, buf)
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		err = nil
	}
	return string(buf[:n]), err
}

// cutAtRune is s's first max bytes, fewer to end on a rune boundary.
func cutAtRune(s string, max int) string {
	if len(s) <= max {
		return s
	}
	for max > 0 && !utf8.RuneStart(s[max]) {
		max--
	}
	return s[:max]
}
