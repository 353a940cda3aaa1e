package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"pincer/sandbox"
)

// grepMaxLines bounds how many result lines a search collects (both backends), so
// that a pattern matching everything costs bounded memory.
const grepMaxLines = 100000

// errTooManyLines stops a search that reached grepMaxLines.
var errTooManyLines = errors.New("too many matching lines")

// ripgrepArgs builds rg's command line for q. The flags make ripgrep behave as
// the Go fallback does: no config file, hidden files searched, .gitignore applied
// even outside a git repository, no .ignore/.rgignore, global or
// .git/info/exclude files, .git skipped (listed last, so it wins over the
// user's glob), and Grep's own type table instead of ripgrep's. Symlinks are
// not followed (no --follow). The model's values — the glob and the pattern —
// are joined to their flag ("--glob=V", "--regexp=V") and the path comes after
// "--", so none of them can become a flag of its own (`--pre=sh`, `-z`,
// `--hostname-bin`).
func ripgrepArgs(q *grepQuery) []string {
	args := []string{
		"--no-config", "--hidden", "--no-require-git", "--no-ignore-dot",
		"--no-ignore-global", "--no-ignore-exclude", "--no-messages",
	}
	if q.ignoreCase {
		args = append(args, "--ignore-case")
	} else {
		args = append(args, "--case-sensitive")
	}
	if q.multiline {
		args = append(args, "--multiline", "--multiline-dotall")
	}
	if q.glob != "" {
		args = append(args, "--glob="+q.glob) // joined: a value never reads as a flag
	}
	args = append(args, "--glob", "!.git")
	if q.typeGlobs != nil {
		for _, g := range q.typeGlobs {
			args = append(args, "--type-add", "pincer:"+g)
		}
		args = append(args, "--type", "pincer")
	}
	switch {
	case q.mode == GrepFilesWithMatches:
		args = append(args, "--files-with-matches", "--null")
	case q.mode == GrepCount && !q.multiline:
		// rg's own counting: --json would print every match of a huge file first.
		args = append(args, "--count", "--null")
	default:
		args = append(args, "--json")
		if q.mode == GrepContent {
			args = append(args, "--before-context", strconv.Itoa(q.before), "--after-context", strconv.Itoa(q.after))
		}
	}
	return append(args, "--regexp="+q.pattern, "--", q.target)
}

// grepRipgrep runs rg (at rgPath) and parses its output. rg never follows
// symlinks while it walks, but it opens the path it is given as the kernel
// resolves it, so a directory swapped for a link to the outside after
// Resolve would be searched there. To close that, the target is opened first
// through the workspace's os.Root and rg is handed that open file instead of
// the path (searchTarget); only a subdirectory searched with an anchored glob
// (one with a "/", which rg matches from its working directory, the workspace
// root) is still named by path.
func grepRipgrep(ctx context.Context, rgPath string, q *grepQuery) ([]grepFile, error) {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	st, err := searchTarget(q)
	if err != nil {
		return nil, err
	}
	defer st.close()
	args := ripgrepArgs(q)
	args[len(args)-1] = st.arg
	cmd := exec.CommandContext(runCtx, rgPath, args...)
	cmd.Dir = st.dir
	cmd.Env = sandbox.WithoutSecrets(os.Environ()) // rg runs outside the sandbox: no keys for it or anything it starts
	cmd.ExtraFiles = st.extra
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting rg: %w", err)
	}
	st.close() // the child has its own copies now
	var files []grepFile
	switch {
	case q.mode == GrepFilesWithMatches:
		files, err = parseRipgrepFiles(stdout, st.abs)
	case q.mode == GrepCount && !q.multiline:
		files, err = parseRipgrepCounts(stdout, st.abs)
	default:
		files, err = parseRipgrepJSON(stdout, st.abs, q.mode == GrepContent)
	}
	if errors.Is(err, errTooManyLines) {
		cancel() // keep what was collected
		err = nil
	}
	waitErr := cmd.Wait()
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var exitErr *exec.ExitError
	if errors.As(waitErr, &exitErr) && exitErr.ExitCode() == 2 && len(files) == 0 {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = "rg failed"
		}
		return nil, errors.New(msg)
	}
	return files, nil
}

// rgTarget is how rg is pointed at q's target: its working directory, the
// path argument, extra files it inherits, and how to map the paths it prints
// back to absolute ones.
type rgTarget struct {
	dir   string
	arg   string
	extra []*os.File
	abs   func(string) string
	open  *os.File // closed by close
}

func (t *rgTarget) close() {
	if t.open != nil {
		t.open.Close()
		t.open = nil
	}
}

// searchTarget opens q's target through q's workspace and says how rg reaches
// it without resolving the path again: a directory becomes rg's working
// directory through /proc/self/fd (the child changes into it before exec,
// while it still holds the parent's descriptors) and rg searches "."; a file
// is inherited as descriptor 3 and searched as /dev/fd/3. Without /proc, or
// for a subdirectory with an anchored glob, rg runs in the workspace root and
// is given the path.
func searchTarget(q *grepQuery) (*rgTarget, error) {
	byPath := &rgTarget{dir: q.root, arg: q.target, abs: func(p string) string { return absFrom(q.root, p) }}
	anchored := strings.Contains(strings.TrimSuffix(strings.TrimPrefix(q.glob, "!"), "/"), "/")
	if _, err := os.Stat("/proc/self/fd"); err != nil || (q.targetDir && anchored && q.target != q.root) {
		return byPath, nil
	}
	flag := os.O_RDONLY | syscall.O_NONBLOCK
	if q.targetDir {
		flag |= syscall.O_DIRECTORY
	}
	f, err := q.ws.Open(q.target, flag, 0)
	if err != nil {
		return nil, err
	}
	if q.targetDir {
		return &rgTarget{dir: "/proc/self/fd/" + strconv.Itoa(int(f.Fd())), arg: ".", open: f,
			abs: func(p string) string { return absFrom(q.target, p) }}, nil
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return byPath, nil // rg skips what is not a regular file, as the Go search does
	}
	return &rgTarget{dir: q.root, arg: "/dev/fd/3", extra: []*os.File{f}, open: f,
		abs: func(p string) string {
			if p == "/dev/fd/3" {
				return q.target
			}
			return absFrom(q.root, p)
		}}, nil
}

// parseRipgrepFiles reads NUL-terminated paths (rg --files-with-matches --null).
func parseRipgrepFiles(r io.Reader, abs func(string) string) ([]grepFile, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if i := bytes.IndexByte(data, 0); i >= 0 {
			return i + 1, data[:i], nil
		}
		if atEOF && len(data) > 0 {
			return len(data), data, nil
		}
		return 0, nil, nil
	})
	var files []grepFile
	for sc.Scan() {
		files = append(files, grepFile{path: abs(sc.Text()), matches: 1})
	}
	return files, sc.Err()
}

// parseRipgrepCounts reads `path NUL count` lines (rg --count --null).
func parseRipgrepCounts(r io.Reader, abs func(string) string) ([]grepFile, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var files []grepFile
	for sc.Scan() {
		path, count, ok := strings.Cut(sc.Text(), "\x00")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(count))
		if err != nil {
			return nil, fmt.Errorf("reading rg --count output: %w", err)
		}
		files = append(files, grepFile{path: abs(path), matches: n})
	}
	return files, sc.Err()
}

// rgText is a ripgrep JSON string: UTF-8 text, or base64 bytes when not UTF-8.
type rgText struct {
	Text  *string `json:"text"`
	Bytes string  `json:"bytes"`
}

// String returns the text, decoding base64 bytes when needed.
func (t rgText) String() string {
	if t.Text != nil {
		return *t.Text
	}
	b, _ := base64.StdEncoding.DecodeString(t.Bytes)
	return string(b)
}

// rgEvent is one line of rg --json output (only the fields used here).
type rgEvent struct {
	Type string `json:"type"`
	Data struct {
		Path       rgText `json:"path"`
		Lines      rgText `json:"lines"`
		LineNumber int    `json:"line_number"`
	} `json:"data"`
}

// parseRipgrepJSON reads rg --json output: "match" and "context" events, whose
// lines may span several lines in multiline mode. keepLines is false in count
// mode, where only the number of matching lines is kept.
func parseRipgrepJSON(r io.Reader, abs func(string) string, keepLines bool) ([]grepFile, error) {
	dec := json.NewDecoder(r)
	var files []grepFile
	index := map[string]int{}
	total := 0
	for {
		var ev rgEvent
		if err := dec.Decode(&ev); err != nil {
			if errors.Is(err, io.EOF) {
				return files, nil
			}
			return files, fmt.Errorf("reading rg output: %w", err)
		}
		if ev.Type != "match" && ev.Type != "context" {
			continue
		}
		path := abs(ev.Data.Path.String())
		i, ok := index[path]
		if !ok {
			i = len(files)
			index[path] = i
			files = append(files, grepFile{path: path})
		}
		f := &files[i]
		isMatch := ev.Type == "match"
		for k, raw := range splitLines(ev.Data.Lines.String()) {
			if isMatch {
				f.matches++
			}
			if keepLines {
				f.lines = append(f.lines, grepLine{num: ev.Data.LineNumber + k, text: displayLine(raw), match: isMatch})
				total++
			}
		}
		if total > grepMaxLines {
			return dropEmpty(files), errTooManyLines
		}
	}
}

// dropEmpty removes files that have context lines but no match (possible only
// when parsing stopped early).
func dropEmpty(files []grepFile) []grepFile {
	out := files[:0]
	for _, f := range files {
		if f.matches > 0 {
			out = append(out, f)
		}
	}
	return out
}

// splitLines splits s after each "\n"; a final piece without one counts too.
func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	return lines
}

// absFrom makes a path printed by rg (run in root) absolute and clean.
func absFrom(root, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(root, p)
}
