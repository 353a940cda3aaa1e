package tui

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"pincer/core/smallfile"
)

// maxLayoutFile is the most bytes a kept layout file may hold (a name and a
// newline; more is not a file pincer wrote).
const maxLayoutFile = 256

// loadLayout reads the kept layout from path: the file holds one layout name
// (layouts.go). No path or no file is LayoutAuto without an error; a file
// that cannot be read or names no layout is LayoutAuto and the error. It is
// read before the first frame, so only as a small regular file, never
// blocking (smallfile.Read: a FIFO there is an error, not a blank workbench).
func loadLayout(path string) (LayoutMode, error) {
	if path == "" {
		return LayoutAuto, nil
	}
	data, err := smallfile.Read(path, maxLayoutFile)
	if errors.Is(err, fs.ErrNotExist) {
		return LayoutAuto, nil
	}
	if err != nil {
		return LayoutAuto, err
	}
	m, err := ParseLayoutMode(strings.TrimSpace(string(data)))
	if err != nil {
		return LayoutAuto, errors.New(path + ": " + err.Error())
	}
	return m, nil
}

// saveLayout writes m to path atomically (a temporary file in the same
// directory, then a rename), creating the directory (0700) if needed.
func saveLayout(path string, m LayoutMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".layout-*")
	if err != nil {
		return err
	}
	_, werr := tmp.WriteString(string(m) + "\n")
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// layoutSaver writes the chosen layout off the event loop. Each write takes
// the latest choice under the lock, so after a burst of presses the file
// holds the last one whatever order the writers ran in.
type layoutSaver struct {
	mu     sync.Mutex
	latest LayoutMode
}

// set records the latest choice. Any goroutine.
func (s *layoutSaver) set(m LayoutMode) {
	s.mu.Lock()
	s.latest = m
	s.mu.Unlock()
}

// save writes the latest choice to path. Any goroutine.
func (s *layoutSaver) save(path string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return saveLayout(path, s.latest)
}

// cycleLayout switches to the next layout, says which in the notices line
// and keeps it (Options.LayoutFile) in the background. Event loop only.
func (w *Workbench) cycleLayout() {
	w.layout = w.layout.next()
	text := "layout: " + string(w.layout)
	if w.layout == LayoutAuto {
		text += " (four columns from " + strconv.Itoa(w.wideColumns()) + " columns, else stacked)"
	}
	w.hint(text)
	path := w.opts.LayoutFile
	if path == "" {
		return
	}
	w.layoutSave.set(w.layout)
	w.goBackground(func() {
		if err := w.layoutSave.save(path); err != nil {
			w.Notify("warning", "the layout is not kept: "+err.Error())
		}
	})
}

// wideColumns is the auto layout's threshold.
func (w *Workbench) wideColumns() int {
	if w.opts.WideColumns > 0 {
		return w.opts.WideColumns
	}
	return DefaultWideColumns
}

// currentLayout is the frame's layout for a width×height screen.
func (w *Workbench) currentLayout(width, height, inputLines int) layout {
	return computeLayout(layoutSpec{Width: width, Height: height, InputLines: inputLines,
		NoticeLines: w.noticeRows(width), TodoLines: w.todoRows(), Zoom: w.zoom, Mode: w.layout, WideColumns: w.wideColumns(),
		TabBar: len(w.tabs) > 1, Split: w.split != nil})
}
