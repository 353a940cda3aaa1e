package prompt

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"pincer/core/permission"
	"pincer/core/smallfile"
)

// Instruction file names.
const (
	AgentsFile         = "AGENTS.md"
	AgentsOverrideFile = "AGENTS.override.md"
	ClaudeFile         = "CLAUDE.md"
	ClaudeLocalFile    = "CLAUDE.local.md"
)

// Instruction limits.
const (
	// MaxImportDepth is how many @import hops are followed from a discovered file.
	MaxImportDepth = 4
	// MaxInstructionFileBytes is how much of one file is included; the rest is cut.
	MaxInstructionFileBytes = 64 << 10
	// MaxInstructionBytes is the total included; files past it are skipped.
	MaxInstructionBytes = 256 << 10
)

// Scope says where an instruction file comes from, which decides how it is
// introduced to the model and what it may import.
type Scope string

// Scopes.
const (
	ScopeUser    Scope = "user"    // the user's own, for all projects
	ScopeProject Scope = "project" // in the repository, meant to be checked in
	ScopeLocal   Scope = "local"   // CLAUDE.local.md: the user's, for this project
)

// InstructionFile is one file whose content is in Instructions.Text.
type InstructionFile struct {
	// Path is the file's absolute path (as found, symlinks not resolved).
	Path string
	// Bytes is how many bytes of it were included.
	Bytes int
	// Imported reports that an @import brought it in.
	Imported bool
	// Scope is where it comes from; an imported file has its importer's scope.
	Scope Scope
}

// Instructions are the loaded instruction files and their rendered text.
type Instructions struct {
	// Files are the included files, in the order of Text.
	Files []InstructionFile
	// Text is every file's content, each under a line naming it; empty when
	// there are none.
	Text string
	// Notes say what was skipped and why: missing or refused imports, cut or
	// unreadable files, the depth and size limits.
	Notes []string
	// Refused are the files read not at all for what they are or where they
	// lead (a symbolic link out of the project, to a credentials location,
	// to /proc; a FIFO or device), each "FILE: why": pincer warns about them
	// at start. They are in Notes too.
	Refused []string
}

// TotalBytes is the sum of the included files' Bytes.
func (in Instructions) TotalBytes() int {
	n := 0
	for _, f := range in.Files {
		n += f.Bytes
	}
	return n
}

// LoadInstructions finds and reads the instruction files for cwd, in this order
// (a later file takes precedence):
//
//  1. the user's own: $PINCER_HOME/AGENTS.override.md, or else
//     $PINCER_HOME/AGENTS.md; then ~/.claude/CLAUDE.md;
//  2. for each directory from the project root (the nearest ancestor of cwd
//     holding .git, else cwd itself) down to cwd: AGENTS.override.md, or else
//     AGENTS.md (as Codex: the override replaces it); then CLAUDE.md; then
//     CLAUDE.local.md.
//
// Each file is followed by the files it imports with @path (relative to the
// file's real directory, @~/ under home, or absolute), depth first, up to
// MaxImportDepth hops. A file is included once, however often it is found or
// imported, which also cuts cycles. Empty files are skipped. Imports from the
// user's own files (step 1) may go anywhere; imports from the repository's files
// (AGENTS.md, CLAUDE.md, CLAUDE.local.md and what they import) must stay inside
// the project root, with symlinks resolved, and never reach $PINCER_HOME or
// ~/.claude even when the root holds them: a cloned repository must not pull
// ~/.ssh, pincer's own configuration or a secret kept beside it into the system
// prompt and the transcript. Problems are recorded in Notes; the error is only for a cwd that
// cannot be made absolute.
func LoadInstructions(cwd, pincerHome, home string) (Instructions, error) {
	if cwd == "" {
		return Instructions{}, errors.New("no working directory")
	}
	cwd, err := filepath.Abs(cwd)
	if err != nil {
		return Instructions{}, err
	}
	root := projectRoot(cwd)
	l := &loader{home: home, seen: map[string]bool{}, allowed: realPath(root),
		project: permission.ProjectFiles(root, home), user: permission.UserFiles(home)}
	for _, r := range []string{joinIf(home, ".claude"), pincerHome} {
		// the user's configuration directories, unless the project is inside one
		if r != "" && !within(realPath(r), l.allowed) {
			l.userDirs = append(l.userDirs, realPath(r))
		}
	}
	if pincerHome != "" {
		if !l.load(filepath.Join(pincerHome, AgentsOverrideFile), ScopeUser, 0, "") {
			l.load(filepath.Join(pincerHome, AgentsFile), ScopeUser, 0, "")
		}
	}
	if home != "" {
		l.load(filepath.Join(home, ".claude", ClaudeFile), ScopeUser, 0, "")
	}
	for _, dir := range dirsDown(root, cwd) {
		if !l.load(filepath.Join(dir, AgentsOverrideFile), ScopeProject, 0, "") {
			l.load(filepath.Join(dir, AgentsFile), ScopeProject, 0, "")
		}
		l.load(filepath.Join(dir, ClaudeFile), ScopeProject, 0, "")
		l.load(filepath.Join(dir, ClaudeLocalFile), ScopeLocal, 0, "")
	}
	return Instructions{Files: l.files, Text: strings.Join(l.sections, "\n\n"), Notes: l.notes, Refused: l.refused}, nil
}

// loader accumulates files, sections and notes for LoadInstructions.
type loader struct {
	home     string
	allowed  string          // the real project root: project-scope files import only from inside it
	userDirs []string        // the real $PINCER_HOME and ~/.claude: never imported by project-scope files
	seen     map[string]bool // real paths already included
	project  smallfile.Place // where a project's files may lead (core/smallfile reads them)
	user     smallfile.Place // where the user's own files may lead
	total    int
	files    []InstructionFile
	sections []string
	notes    []string
	refused  []string
}

// load includes the file at path and, depth first, what it imports. importer is
// the importing file ("" for a discovered file). It reports whether the file was
// included now.
func (l *loader) load(path string, scope Scope, depth int, importer string) bool {
	path = filepath.Clean(path)
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		if importer != "" || !errors.Is(err, fs.ErrNotExist) {
			l.note(path, importer, "not found")
		}
		return false
	}
	if l.seen[real] {
		return false
	}
	if scope != ScopeUser && !l.allowedPath(real) { // one check for discovered and imported files alike
		l.refused = append(l.refused, fmt.Sprintf("%s: a symbolic link to %s, outside the project: not read", path, real))
		if importer == "" {
			l.note(path, importer, fmt.Sprintf("refused: a symbolic link to %s; a project's instruction file is read only from inside the project (not $PINCER_HOME or ~/.claude)", real))
		} else {
			l.note(path, importer, "refused: a project file may import only from inside the project (not $PINCER_HOME or ~/.claude)")
		}
		return false
	}
	place := l.project
	if scope == ScopeUser {
		place = l.user
	}
	content, cut, err := readInstructionFile(place, path)
	if err != nil {
		if errors.Is(err, smallfile.ErrRefused) {
			l.refused = append(l.refused, path+": "+strings.TrimPrefix(err.Error(), path+": "))
		}
		l.note(path, importer, strings.TrimPrefix(err.Error(), path+": "))
		return false
	}
	if strings.TrimSpace(content) == "" {
		return false
	}
	if l.total+len(content) > MaxInstructionBytes {
		l.note(path, importer, fmt.Sprintf("skipped: instructions are limited to %d bytes in all", MaxInstructionBytes))
		return false
	}
	l.seen[real] = true
	l.total += len(content)
	if cut {
		l.note(path, importer, fmt.Sprintf("cut to its first %d bytes", len(content)))
	}
	l.files = append(l.files, InstructionFile{Path: path, Bytes: len(content), Imported: importer != "", Scope: scope})
	l.sections = append(l.sections, fmt.Sprintf("Contents of %s (%s):\n\n%s", path, describe(scope, importer), strings.TrimRight(content, "\n\r\t ")))
	refs := findImports(content)
	if depth >= MaxImportDepth {
		if len(refs) > 0 {
			l.note(path, importer, fmt.Sprintf("its imports were not followed: more than %d hops from a discovered file", MaxImportDepth))
		}
		return true
	}
	for _, ref := range refs {
		target, ok := resolveImport(ref, filepath.Dir(real), l.home)
		if !ok {
			l.notes = append(l.notes, fmt.Sprintf("%s: @%s: home directory unknown", path, ref))
			continue
		}
		l.load(target, scope, depth+1, path)
	}
	return true
}

// note records a problem with path (imported by importer, if any).
func (l *loader) note(path, importer, msg string) {
	if importer != "" {
		msg = fmt.Sprintf("%s (imported by %s)", msg, importer)
	}
	l.notes = append(l.notes, path+": "+msg)
}

// allowedPath reports whether a project-scope file may import real: inside
// the project root and outside the user's configuration directories.
func (l *loader) allowedPath(real string) bool {
	if !within(l.allowed, real) {
		return false
	}
	for _, d := range l.userDirs {
		if within(d, real) {
			return false
		}
	}
	return true
}

// realPath is p with symlinks resolved, or cleaned when it cannot be.
func realPath(p string) string {
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return filepath.Clean(p)
}

// readInstructionFile reads a plain regular text file through place (where
// it may lead; never blocking, never a kernel file: core/smallfile), cutting it
// at MaxInstructionFileBytes (on a line boundary when there is one) and
// reporting whether it did.
func readInstructionFile(place smallfile.Place, path string) (content string, cut bool, err error) {
	f, err := place.Open(path)
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxInstructionFileBytes+1))
	if err != nil {
		return "", false, err
	}
	if bytes.IndexByte(b[:min(len(b), 8192)], 0) >= 0 {
		return "", false, errors.New("binary file")
	}
	if len(b) > MaxInstructionFileBytes {
		b, cut = b[:MaxInstructionFileBytes], true
		if i := bytes.LastIndexByte(b, '\n'); i > 0 {
			b = b[:i+1]
		}
		for len(b) > 0 && !utf8.Valid(b) {
			b = b[:len(b)-1]
		}
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), cut, nil
}

// describe is how a file is introduced to the model.
func describe(scope Scope, importer string) string {
	var d string
	switch scope {
	case ScopeUser:
		d = "the user's own instructions, for all projects"
	case ScopeLocal:
		d = "the user's private instructions for this project"
	default:
		d = "project instructions, checked into the codebase"
	}
	if importer != "" {
		d += ", imported by " + importer
	}
	return d
}

// projectRoot is the nearest ancestor of cwd (cwd included) holding .git (a
// directory, or a file in worktrees and submodules), else cwd.
func projectRoot(cwd string) string {
	for dir := cwd; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return cwd
		}
		dir = parent
	}
}

// dirsDown lists the directories from root down to cwd, both included; root must
// be cwd or one of its ancestors.
func dirsDown(root, cwd string) []string {
	var up []string
	for dir := cwd; ; dir = filepath.Dir(dir) {
		up = append(up, dir)
		if dir == root || filepath.Dir(dir) == dir {
			break
		}
	}
	out := make([]string, len(up))
	for i, d := range up {
		out[len(up)-1-i] = d
	}
	return out
}

// within reports whether path is root or inside it.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// joinIf joins elem to base, or returns "" when base is empty.
func joinIf(base, elem string) string {
	if base == "" {
		return ""
	}
	return filepath.Join(base, elem)
}
