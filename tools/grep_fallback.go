package tools

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"

	"pincer/sandbox"
)

// grepFallback is Grep without ripgrep: Go regexps (RE2 syntax, close to
// ripgrep's), files from walkSearchFiles, searched in parallel. Binary files (a
// NUL byte anywhere) and files over ReadMaxBytes are skipped.
func grepFallback(ctx context.Context, q *grepQuery) ([]grepFile, error) {
	re, err := compileGrep(q)
	if err != nil {
		return nil, err
	}
	filter, err := newGrepFilter(q)
	if err != nil {
		return nil, err
	}
	var (
		mu    sync.Mutex
		files []grepFile
		lines atomic.Int64
		wg    sync.WaitGroup
	)
	paths := make(chan string, 64)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for p := range paths {
				f, ok := searchFile(re, q, p)
				if !ok {
					continue
				}
				lines.Add(int64(len(f.lines)))
				mu.Lock()
				files = append(files, f)
				mu.Unlock()
			}
		})
	}
	walkErr := walkSearchFiles(ctx, q, filter, func(p string) bool {
		if lines.Load() > grepMaxLines {
			return false
		}
		select {
		case paths <- p:
			return true
		case <-ctx.Done():
			return false
		}
	})
	close(paths)
	wg.Wait()
	if walkErr != nil {
		return nil, walkErr
	}
	return files, nil
}

// verifyThroughRoot re-reads each file ripgrep reported through q's workspace
// (its os.Root) and searches it again with the Go matcher, keeping only what
// that finds. ripgrep opens the directories it walks by path, so a directory
// swapped for a symlink to the outside mid-walk is searched there; after this
// pass no line and no file name comes from outside: a file reached that way
// either cannot be opened inside the workspace (dropped) or is the inside file
// of that name (its own lines shown). ripgrep stays the fast filter; the Go
// pass costs a second read of the matching files only. A pattern the Go
// matcher cannot compile is an error, as it is for the Go backend.
func verifyThroughRoot(q *grepQuery, files []grepFile) ([]grepFile, error) {
	if len(files) == 0 {
		return files, nil
	}
	re, err := compileGrep(q)
	if err != nil {
		return nil, err
	}
	out := files[:0]
	lines := 0
	for _, f := range files {
		if lines > grepMaxLines {
			break
		}
		g, ok := searchFile(re, q, f.path)
		if !ok {
			continue
		}
		lines += len(g.lines)
		out = append(out, g)
	}
	return out, nil
}

// compileGrep compiles q's pattern with its flags: case-insensitive for -i; for
// multiline, "." matching newlines and ^/$ at line boundaries as in ripgrep.
func compileGrep(q *grepQuery) (*regexp.Regexp, error) {
	flags := ""
	if q.ignoreCase {
		flags += "i"
	}
	if q.multiline {
		flags += "ms"
	}
	expr := q.pattern
	if flags != "" {
		expr = "(?" + flags + ")" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression %q: %w", q.pattern, err)
	}
	return re, nil
}

// readSearched reads the regular file path through q's workspace (never
// blocking on a FIFO), or reports false for one it skips: missing, not
// regular, over ReadMaxBytes, reached through a link out of the workspace, or
// a hard link that is (or, past the walk's cap, may be) a file the sandbox
// hides (sandbox.HardLinkToHidden). Both backends read every file they report
// through it (rg's results are verified here), so neither shows such a file.
func readSearched(q *grepQuery, path string) ([]byte, bool) {
	f, err := q.ws.Open(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > ReadMaxBytes {
		return nil, false
	}
	if v, _ := sandbox.HardLinkToHidden(fi); v != sandbox.LinkNone {
		return nil, false
	}
	data, err := readAllOf(f, fi.Size(), ReadMaxBytes)
	return data, err == nil
}

// searchFile searches one file and reports whether it has a match.
func searchFile(re *regexp.Regexp, q *grepQuery, path string) (grepFile, bool) {
	data, ok := readSearched(q, path)
	if !ok || bytes.IndexByte(data, 0) >= 0 {
		return grepFile{}, false
	}
	if q.mode == GrepFilesWithMatches && !q.multiline {
		// One match is enough; avoid splitting lines.
		if !matchAnyLine(re, data) {
			return grepFile{}, false
		}
		return grepFile{path: path, matches: 1}, true
	}
	starts := lineStarts(data)
	matched := matchedLines(re, q, data, starts)
	if len(matched) == 0 {
		return grepFile{}, false
	}
	f := grepFile{path: path, matches: len(matched)}
	if q.mode != GrepContent {
		return f, true
	}
	// Matching lines plus their context, each line once.
	keep := map[int]bool{} // line index -> is a match
	for _, i := range matched {
		keep[i] = true
	}
	for _, i := range matched {
		for j := max(i-q.before, 0); j <= min(i+q.after, len(starts)-1); j++ {
			if _, ok := keep[j]; !ok {
				keep[j] = false
			}
		}
	}
	for i, isMatch := range keep {
		f.lines = append(f.lines, grepLine{num: i + 1, text: displayLine(lineAt(data, starts, i)), match: isMatch})
	}
	return f, true
}

// matchAnyLine reports whether any line of data matches re.
func matchAnyLine(re *regexp.Regexp, data []byte) bool {
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if re.Match(line) {
			return true
		}
	}
	return false
}

// lineStarts returns the byte offset at which each line of data starts.
func lineStarts(data []byte) []int {
	starts := []int{0}
	for i, c := range data {
		if c == '\n' && i+1 < len(data) {
			starts = append(starts, i+1)
		}
	}
	if len(data) == 0 {
		return nil
	}
	return starts
}

// lineAt returns line i (0-based) of data, without its "\n".
func lineAt(data []byte, starts []int, i int) string {
	return string(lineBytes(data, starts, i))
}

// lineBytes is lineAt without the copy.
func lineBytes(data []byte, starts []int, i int) []byte {
	end := len(data)
	if i+1 < len(starts) {
		end = starts[i+1]
	}
	return bytes.TrimSuffix(data[starts[i]:end], []byte("\n"))
}

// matchedLines returns the sorted 0-based indexes of the lines that hold a match:
// each line on its own, or in multiline mode every line a match spans.
func matchedLines(re *regexp.Regexp, q *grepQuery, data []byte, starts []int) []int {
	var out []int
	if !q.multiline {
		for i := range starts {
			if re.Match(lineBytes(data, starts, i)) {
				out = append(out, i)
			}
		}
		return out
	}
	seen := map[int]bool{}
	lineOf := func(off int) int {
		return sort.Search(len(starts), func(k int) bool { return starts[k] > off }) - 1
	}
	for _, loc := range re.FindAllIndex(data, -1) {
		if loc[0] >= len(data) {
			continue // an empty match after the final newline
		}
		first, last := lineOf(loc[0]), lineOf(max(loc[1]-1, loc[0]))
		for i := first; i <= last; i++ {
			if !seen[i] {
				seen[i] = true
				out = append(out, i)
			}
		}
	}
	sort.Ints(out)
	return out
}
