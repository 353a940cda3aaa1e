package tools

import (
	"cmp"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"sort"
	"strings"
	"time"

	"pincer/sandbox"
)

//go:embed grep.md
var grepDescription string

// Grep output modes, as Claude Code's Grep.
const (
	GrepFilesWithMatches = "files_with_matches" // matching files, newest first (the default)
	GrepContent          = "content"            // matching lines, as path:line:text
	GrepCount            = "count"              // matching lines per file
)

// GrepBackend chooses how Grep searches.
type GrepBackend int

// Grep backends.
const (
	// GrepAuto uses ripgrep when `rg` is on PATH, else the Go fallback.
	GrepAuto GrepBackend = iota
	// GrepRipgrep always uses ripgrep (an error when it is not installed).
	GrepRipgrep
	// GrepFallback always uses the Go implementation.
	GrepFallback
)

// GrepInput is the input of the Grep tool, as Claude Code's Grep (its dashed
// option names included).
type GrepInput struct {
	Pattern    string `json:"pattern"`
	Path       string `json:"path,omitempty"`
	Glob       string `json:"glob,omitempty"`
	Type       string `json:"type,omitempty"`
	OutputMode string `json:"output_mode,omitempty"`
	IgnoreCase bool   `json:"-i,omitempty"`
	// LineNumbers defaults to true (content mode only).
	LineNumbers *bool `json:"-n,omitempty"`
	After       *int  `json:"-A,omitempty"`
	Before      *int  `json:"-B,omitempty"`
	Context     *int  `json:"-C,omitempty"`
	Multiline   bool  `json:"multiline,omitempty"`
	// HeadLimit keeps the first N output lines or entries; 0 means all.
	HeadLimit int `json:"head_limit,omitempty"`
}

const grepSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "minLength": 1, "description": "Regular expression to search file contents for."},
    "path": {"type": "string", "description": "File or directory to search, absolute or relative to the workspace root (default: the workspace root)."},
    "glob": {"type": "string", "description": "Only search files matching this glob, e.g. \"*.js\" or \"*.{ts,tsx}\" (rg --glob); a leading ! excludes."},
    "type": {"type": "string", "enum": ["go", "js", "ts", "py", "rust", "java", "c", "cpp", "md", "json", "yaml"], "description": "Only search files of this type (rg --type)."},
    "output_mode": {"type": "string", "enum": ["files_with_matches", "content", "count"], "default": "files_with_matches", "description": "files_with_matches lists files, content shows matching lines, count shows matches per file."},
    "-i": {"type": "boolean", "description": "Case-insensitive search."},
    "-n": {"type": "boolean", "default": true, "description": "Show line numbers (content mode only)."},
    "-A": {"type": "integer", "minimum": 0, "maximum": 1000, "description": "Lines of context after each match (content mode only)."},
    "-B": {"type": "integer", "minimum": 0, "maximum": 1000, "description": "Lines of context before each match (content mode only)."},
    "-C": {"type": "integer", "minimum": 0, "maximum": 1000, "description": "Lines of context before and after each match (content mode only)."},
    "multiline": {"type": "boolean", "description": "Let . match newlines and matches span lines (rg -U --multiline-dotall)."},
    "head_limit": {"type": "integer", "minimum": 0, "maximum": 100000, "description": "Keep only the first N lines or entries of the output (0: all)."}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`

// grepTypes maps Grep's type names to file-name globs. Both backends use this
// table (ripgrep through --type-add) so that they agree.
var grepTypes = map[string][]string{
	"go":   {"*.go"},
	"js":   {"*.js", "*.jsx", "*.mjs", "*.cjs"},
	"ts":   {"*.ts", "*.tsx", "*.mts", "*.cts"},
	"py":   {"*.py", "*.pyi"},
	"rust": {"*.rs"},
	"java": {"*.java"},
	"c":    {"*.c", "*.h"},
	"cpp":  {"*.cpp", "*.cc", "*.cxx", "*.c++", "*.hpp", "*.hh", "*.hxx", "*.h"},
	"md":   {"*.md", "*.markdown"},
	"json": {"*.json"},
	"yaml": {"*.yaml", "*.yml"},
}

// Grep is the content search tool, as Claude Code's Grep. It runs ripgrep when
// available and a Go implementation otherwise; both skip .git, files ignored by
// .gitignore files (from the workspace root down), binary files and symlinks,
// search hidden files, and give the same results. Paths in the output are
// relative to the workspace root.
type Grep struct {
	// Backend forces a backend; the zero value picks ripgrep when installed.
	Backend GrepBackend
}

// Spec describes Grep: KindRead, concurrency-safe.
func (Grep) Spec() Spec {
	return Spec{Name: "Grep", Description: grepDescription, Schema: json.RawMessage(grepSchema), Kind: KindRead, ConcurrencySafe: true}
}

// Summary returns `Grep "PATTERN"`, with " in PATH" when a path is given.
func (Grep) Summary(in GrepInput) string {
	s := `Grep "` + oneLine(in.Pattern, 60) + `"`
	if in.Path != "" {
		s += " in " + summaryPath(in.Path)
	}
	if in.Glob != "" {
		s += " (" + in.Glob + ")"
	}
	return s
}

// Paths returns the resolved search root.
func (Grep) Paths(env *Env, in GrepInput) []string {
	return pathsOf(env, cmp.Or(in.Path, "."))
}

// Run searches and formats the result for the output mode.
func (g Grep) Run(ctx context.Context, env *Env, in GrepInput) (Result, error) {
	if err := checkEnv(env); err != nil {
		return Result{}, err
	}
	q, err := newGrepQuery(env, in)
	if err != nil {
		return Result{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, GrepTimeout)
	defer cancel()
	var files []grepFile
	switch rg := ripgrepPath(); {
	case g.Backend == GrepFallback || (g.Backend == GrepAuto && rg == ""):
		files, err = grepFallback(ctx, q)
	case rg == "":
		return Result{}, errors.New("ripgrep (rg) is not installed")
	default:
		files, err = grepRipgrep(ctx, rg, q)
		if err == nil {
			files, err = verifyThroughRoot(q, files)
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return Result{}, fmt.Errorf("search took longer than %s; narrow it with path, glob or type", GrepTimeout)
	}
	if err != nil {
		return Result{}, err
	}
	if env.ReadDenied != nil { // both backends: no line or name of a denied file
		kept := files[:0]
		for _, f := range files {
			if !env.readDenied(f.path) {
				kept = append(kept, f)
			}
		}
		files = kept
	}
	return Result{Output: formatGrep(env, q, files, in.HeadLimit)}, nil
}

// GrepTimeout bounds one Grep call, so a search of a huge tree cannot hang a turn.
const GrepTimeout = 60 * time.Second

// ripgrepPath returns the path of rg on PATH, or "".
func ripgrepPath() string {
	p, err := exec.LookPath("rg")
	if err != nil {
		return ""
	}
	return p
}

// grepQuery is a validated Grep input with resolved paths.
type grepQuery struct {
	ws         *sandbox.Workspace // what the search reads through (searchSpace)
	root       string             // ws's root, absolute
	target     string             // file or directory to search, absolute
	targetDir  bool
	pattern    string
	ignoreCase bool
	multiline  bool
	glob       string   // as given; "" for none
	typeGlobs  []string // from Type; nil for none
	mode       string
	lineNums   bool
	before     int
	after      int
}

// newGrepQuery validates in and resolves its path.
func newGrepQuery(env *Env, in GrepInput) (*grepQuery, error) {
	if in.Pattern == "" {
		return nil, errors.New("pattern is required")
	}
	q := &grepQuery{
		root:       env.Workspace.Root(),
		pattern:    in.Pattern,
		ignoreCase: in.IgnoreCase,
		multiline:  in.Multiline,
		glob:       in.Glob,
		mode:       cmp.Or(in.OutputMode, GrepFilesWithMatches),
		lineNums:   in.LineNumbers == nil || *in.LineNumbers,
	}
	switch q.mode {
	case GrepFilesWithMatches, GrepContent, GrepCount:
	default:
		return nil, fmt.Errorf("unknown output_mode %q: use files_with_matches, content or count", in.OutputMode)
	}
	if in.Type != "" {
		globs, ok := grepTypes[in.Type]
		if !ok {
			names := make([]string, 0, len(grepTypes))
			for n := range grepTypes {
				names = append(names, n)
			}
			sort.Strings(names)
			return nil, fmt.Errorf("unknown type %q: use one of %s, or a glob", in.Type, strings.Join(names, ", "))
		}
		q.typeGlobs = globs
	}
	if q.mode == GrepContent {
		for _, v := range []*int{in.Context, in.Before, in.After} {
			if v != nil && *v < 0 {
				return nil, errors.New("-A, -B and -C must not be negative")
			}
		}
		if in.Context != nil {
			q.before, q.after = *in.Context, *in.Context
		}
		if in.Before != nil {
			q.before = *in.Before
		}
		if in.After != nil {
			q.after = *in.After
		}
	}
	if in.HeadLimit < 0 {
		return nil, errors.New("head_limit must not be negative")
	}
	ws, target, err := searchSpace(env, cmp.Or(in.Path, "."))
	if err != nil {
		return nil, err
	}
	q.ws, q.root = ws, ws.Root()
	fi, err := ws.Stat(target)
	if err != nil {
		return nil, fmt.Errorf("path does not exist: %s", displayPath(env, target))
	}
	q.target, q.targetDir = target, fi.IsDir()
	return q, nil
}
