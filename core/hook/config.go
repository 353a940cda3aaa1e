package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"time"

	toml "github.com/pelletier/go-toml/v2"
)

// DefaultTimeout bounds a hook that sets no timeout (Claude Code's default: 60 s).
const DefaultTimeout = 60 * time.Second

// Def is one hook definition: run Command when an event whose matcher target
// Matcher selects happens.
type Def struct {
	Matcher string        // see ParseMatcher
	Command string        // run by bash -c (sh -c without bash) in the project directory
	Timeout time.Duration // zero: DefaultTimeout
	Source  string        // the file it came from, for messages; may be empty
	Project bool          // it came from a project file (Source.Project): runs only once trusted
}

// Format is the syntax of a configuration file.
type Format int

// The configuration formats.
const (
	// FormatTOML is pincer's config.toml: [[hooks.EVENT]] tables with matcher,
	// command and timeout.
	FormatTOML Format = iota
	// FormatClaude is Claude Code's settings.json: {"hooks": {EVENT: [{"matcher":
	// ..., "hooks": [{"type": "command", "command": ..., "timeout": ...}]}]}}.
	FormatClaude
)

// Source is one configuration file to read hooks from.
type Source struct {
	Path   string
	Format Format
	// Project marks the project's own files (committed with the repository, so
	// not trusted): their hooks run only once the user trusts them (see trust.go).
	Project bool
}

// FileError is a problem with one configuration file. Line is 1-based, zero when
// unknown.
//
// Every FileError is fatal — a file that does not parse contributes no hooks,
// and a PreToolUse hook may be what stands between the model and a command
// (issue 10, class 13) — except one with Warning set: a Claude Code hook type
// pincer does not run ("prompt"), which is skipped as Claude Code's older
// versions skip it.
type FileError struct {
	Path    string
	Line    int
	Err     error
	Warning bool
}

// Fatal returns the errors among errs (as Load returns them) that must stop
// pincer: every one that is not a *FileError with Warning set.
func Fatal(errs []error) []error {
	var out []error
	for _, err := range errs {
		var fe *FileError
		if errors.As(err, &fe) && fe.Warning {
			continue
		}
		out = append(out, err)
	}
	return out
}

func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// DefaultSources lists the files hooks are read from, in merge order (see the
// package doc). pincerHome is $PINCER_HOME ("" when unset); without it the user's
// config.toml is looked up under $XDG_CONFIG_HOME, then ~/.config. Files that do
// not exist are listed too; Load skips them.
func DefaultSources(projectDir, pincerHome string) []Source {
	home, _ := os.UserHomeDir()
	var srcs []Source
	switch {
	case pincerHome != "":
		srcs = append(srcs, Source{Path: filepath.Join(pincerHome, "config.toml"), Format: FormatTOML})
	case os.Getenv("XDG_CONFIG_HOME") != "":
		srcs = append(srcs, Source{Path: filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "pincer", "config.toml"), Format: FormatTOML})
	case home != "":
		srcs = append(srcs, Source{Path: filepath.Join(home, ".config", "pincer", "config.toml"), Format: FormatTOML})
	}
	if home != "" {
		srcs = append(srcs, Source{Path: filepath.Join(home, ".claude", "settings.json"), Format: FormatClaude})
	}
	return append(srcs,
		Source{filepath.Join(projectDir, ".pincer", "config.toml"), FormatTOML, true},
		Source{filepath.Join(projectDir, ".claude", "settings.json"), FormatClaude, true},
		Source{filepath.Join(projectDir, ".claude", "settings.local.json"), FormatClaude, true},
	)
}

// Load reads the hooks of DefaultSources(projectDir, pincerHome) and returns a
// Runner for projectDir. The Runner is never nil; the errors (*FileError, one per
// problem) are all reported at once, and the caller must not run tools while
// Fatal(errs) is not empty.
func Load(projectDir, pincerHome string) (*Runner, []error) {
	return LoadSources(projectDir, DefaultSources(projectDir, pincerHome))
}

// LoadSources is Load with an explicit file list. A file listed twice (the project
// directory being the home directory, say) is read once.
func LoadSources(projectDir string, srcs []Source) (*Runner, []error) {
	defs := map[Event][]Def{}
	var errs []error
	var seen []os.FileInfo
	for _, src := range srcs {
		data, err := os.ReadFile(src.Path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, &FileError{Path: src.Path, Err: err})
			continue
		}
		if fi, err := os.Stat(src.Path); err == nil {
			dup := false
			for _, s := range seen {
				dup = dup || os.SameFile(s, fi)
			}
			if dup {
				continue
			}
			seen = append(seen, fi)
		}
		var got map[Event][]Def
		var ferrs []error
		if src.Format == FormatClaude {
			got, ferrs = parseClaude(src.Path, data)
		} else {
			got, ferrs = parseTOML(src.Path, data)
		}
		errs = append(errs, ferrs...)
		for _, ev := range Events {
			for _, d := range got[ev] {
				d.Project = src.Project
				defs[ev] = append(defs[ev], d)
			}
		}
	}
	r, rerrs := NewRunner(defs, projectDir)
	return r, append(errs, rerrs...)
}

// tomlHook is one [[hooks.EVENT]] table of config.toml.
type tomlHook struct {
	Matcher string  `toml:"matcher"`
	Command string  `toml:"command"`
	Timeout float64 `toml:"timeout"`
}

// parseTOML reads the hooks of a pincer config.toml; other tables are ignored.
// Unknown event names are errors: this is pincer's own format, so one is a typo.
func parseTOML(path string, data []byte) (map[Event][]Def, []error) {
	var file struct {
		Hooks map[string][]tomlHook `toml:"hooks"`
	}
	if err := toml.Unmarshal(data, &file); err != nil {
		fe := &FileError{Path: path, Err: err}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			fe.Line, _ = de.Position()
		}
		return nil, []error{fe}
	}
	defs := map[Event][]Def{}
	var errs []error
	for _, name := range sortedKeys(file.Hooks) {
		ev := Event(name)
		if !ev.Valid() {
			errs = append(errs, &FileError{Path: path, Line: tableLine(data, name, 0), Err: fmt.Errorf("hooks.%s: unknown hook event (want one of %v)", name, Events)})
			continue
		}
		for i, h := range file.Hooks[name] {
			d, err := newDef(h.Matcher, h.Command, h.Timeout, path)
			if err != nil {
				errs = append(errs, &FileError{Path: path, Line: tableLine(data, name, i), Err: fmt.Errorf("hooks.%s[%d]: %w", name, i, err)})
				continue
			}
			defs[ev] = append(defs[ev], d)
		}
	}
	return defs, errs
}

// tableLine returns the 1-based line of the i-th (from 0) line of data that
// opens or names hooks.EVENT ("[[hooks.EVENT]]", "hooks.EVENT = ..."), else of
// the first one; 0 when there is none.
func tableLine(data []byte, event string, i int) int {
	first, n := 0, 0
	for ln, line := range bytes.Split(data, []byte("\n")) {
		l := bytes.TrimSpace(bytes.TrimLeft(bytes.TrimSpace(line), "["))
		rest, ok := bytes.CutPrefix(l, []byte("hooks."+event))
		if !ok {
			rest, ok = bytes.CutPrefix(l, []byte("hooks.\""+event+"\""))
		}
		if r := bytes.TrimSpace(rest); !ok || len(r) == 0 || !bytes.ContainsAny(r[:1], "]=.") {
			continue
		}
		if first == 0 {
			first = ln + 1
		}
		if n == i {
			return ln + 1
		}
		n++
	}
	return first
}

// claudeHook is one entry of a matcher group's "hooks" array in settings.json.
type claudeHook struct {
	Type    string  `json:"type"`
	Command string  `json:"command"`
	Timeout float64 `json:"timeout"`
}

// claudeGroup is one matcher group of settings.json.
type claudeGroup struct {
	Matcher string       `json:"matcher"`
	Hooks   []claudeHook `json:"hooks"`
}

// parseClaude reads the hooks of a Claude Code settings file; other settings are
// ignored, and so are events pincer does not fire (Claude Code has many more).
func parseClaude(path string, data []byte) (map[Event][]Def, []error) {
	var file struct {
		Hooks map[string][]claudeGroup `json:"hooks"`
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil // an empty file holds no hooks to lose
	}
	if err := json.Unmarshal(data, &file); err != nil {
		fe := &FileError{Path: path, Err: err}
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			fe.Line = lineAt(data, se.Offset)
		case errors.As(err, &te):
			fe.Line = lineAt(data, te.Offset)
			fe.Err = fmt.Errorf("%s must be %s, not a JSON %s", te.Field, jsonKind(te.Type.Kind()), te.Value)
		}
		return nil, []error{fe}
	}
	defs := map[Event][]Def{}
	var errs []error
	for _, name := range sortedKeys(file.Hooks) {
		ev := Event(name)
		if !ev.Valid() {
			continue
		}
		for gi, g := range file.Hooks[name] {
			for hi, h := range g.Hooks {
				where := fmt.Sprintf("hooks.%s[%d].hooks[%d]", name, gi, hi)
				if h.Type != "command" {
					errs = append(errs, &FileError{Path: path, Warning: true, Err: fmt.Errorf("%s: hook type %q is not supported by pincer (only \"command\"); skipped", where, h.Type)})
					continue
				}
				d, err := newDef(g.Matcher, h.Command, h.Timeout, path)
				if err != nil {
					errs = append(errs, &FileError{Path: path, Err: fmt.Errorf("%s: %w", where, err)})
					continue
				}
				defs[ev] = append(defs[ev], d)
			}
		}
	}
	return defs, errs
}

// newDef validates one definition read from a file; timeout is in seconds, zero
// meaning DefaultTimeout.
func newDef(matcher, command string, timeout float64, source string) (Def, error) {
	if len(bytes.TrimSpace([]byte(command))) == 0 {
		return Def{}, errors.New("command is empty")
	}
	if timeout < 0 || math.IsNaN(timeout) || timeout > 24*3600 {
		return Def{}, fmt.Errorf("timeout %v is not a number of seconds between 0 and 86400", timeout)
	}
	if _, err := ParseMatcher(matcher); err != nil {
		return Def{}, err
	}
	return Def{Matcher: matcher, Command: command, Timeout: time.Duration(timeout * float64(time.Second)), Source: source}, nil
}

// jsonKind names what a Go kind decodes from, for messages.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "a string"
	case reflect.Float64, reflect.Int:
		return "a number"
	case reflect.Slice:
		return "an array"
	case reflect.Bool:
		return "true or false"
	}
	return "an object"
}

// lineAt returns the 1-based line of byte offset off in data.
func lineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// sortedKeys returns m's keys in order, so that messages come out the same way
// every time.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
