package permission

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Rule sources, merged in this order (order only decides which rule a decision
// names; deny beats ask beats allow whatever the source):
//
//	user config                  $PINCER_HOME/config.toml, else $XDG_CONFIG_HOME/pincer/config.toml,
//	                             else ~/.config/pincer/config.toml
//	.pincer/config.toml          the project's, checked in
//	.pincer/settings.local.toml  the project's, git-ignored; "always allow" answers land here
//	.claude/settings.json        Claude Code's project settings: its "permissions" object
//	.claude/settings.local.json  Claude Code's local project settings
//
// Session rules (the store) and --allowed-tools / --disallowed-tools (ParseRuleList)
// are merged on top by the caller. The TOML shape is
//
//	[permissions]
//	allow = ["Bash(npm run test:*)", "Read"]
//	ask   = ["Bash(git push:*)"]
//	deny  = ["Read(./secrets/**)"]
//
// and the JSON one Claude Code's: {"permissions": {"allow": [...], "ask": [...], "deny": [...]}}.
// Other keys of these files belong to other parts of pincer and are ignored here.

// LoadError is a problem with one rule file: a syntax error, an unknown key in
// its permissions table, or a rule that does not parse. Line (and Column) are
// 1-based, 0 when unknown.
//
// Every LoadError is fatal — pincer must not run with fewer deny or ask rules
// than the user wrote (issue 10, class 13) — except one with Warning set: an
// allow rule that does not parse, whose loss only takes a permission away.
type LoadError struct {
	Path         string
	Line, Column int
	Err          error
	// Warning marks a problem that leaves the file's deny and ask rules whole.
	Warning bool
}

// Fatal returns the errors among errs (as LoadRules returns them) that must
// stop pincer: every one that is not a *LoadError with Warning set.
func Fatal(errs []error) []error {
	var out []error
	for _, err := range errs {
		var le *LoadError
		if errors.As(err, &le) && le.Warning {
			continue
		}
		out = append(out, err)
	}
	return out
}

// Error reads "path:line:column: message", like a compiler's.
func (e *LoadError) Error() string {
	switch {
	case e.Line > 0 && e.Column > 0:
		return fmt.Sprintf("%s:%d:%d: %v", e.Path, e.Line, e.Column, e.Err)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

// Unwrap returns the underlying error.
func (e *LoadError) Unwrap() error { return e.Err }

// source is one rule file.
type source struct {
	path, name string
	json       bool
}

// UserConfigPath is the user's config.toml: under pincerHome when set, else under
// $XDG_CONFIG_HOME/pincer, else ~/.config/pincer ("" when none is known).
func UserConfigPath(pincerHome string) string {
	if pincerHome != "" {
		return filepath.Join(pincerHome, "config.toml")
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "pincer", "config.toml")
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		return filepath.Join(home, ".config", "pincer", "config.toml")
	}
	return ""
}

// LocalSettingsPath is where SaveLocalRule writes: <workspace>/.pincer/settings.local.toml.
func LocalSettingsPath(workspace string) string {
	return filepath.Join(workspace, ".pincer", "settings.local.toml")
}

func sources(workspace, pincerHome string) []source {
	var srcs []source
	if p := UserConfigPath(pincerHome); p != "" {
		srcs = append(srcs, source{path: p, name: "user config"})
	}
	if workspace == "" {
		return srcs
	}
	return append(srcs,
		source{path: filepath.Join(workspace, ".pincer", "config.toml"), name: ".pincer/config.toml"},
		source{path: LocalSettingsPath(workspace), name: ".pincer/settings.local.toml"},
		source{path: filepath.Join(workspace, ".claude", "settings.json"), name: ".claude/settings.json", json: true},
		source{path: filepath.Join(workspace, ".claude", "settings.local.json"), name: ".claude/settings.local.json", json: true},
	)
}

// LoadRules reads every rule file of workspace (see above). A missing file is
// skipped; each bad file, unknown key of a permissions table or bad rule is one
// *LoadError in errs (naming the file and, when known, the line), and
// everything else still loads so that all problems are reported at once. The
// caller must not run tools when Fatal(errs) is not empty: a file that does
// not parse contributes no rules, its deny rules included.
func LoadRules(workspace, pincerHome string) (RuleSet, []error) {
	var rs RuleSet
	var errs []error
	seen := map[string]bool{}
	for _, src := range sources(workspace, pincerHome) {
		if abs, err := filepath.Abs(src.path); err == nil {
			if seen[abs] { // the workspace is the config directory, say
				continue
			}
			seen[abs] = true
		}
		data, err := os.ReadFile(src.path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, &LoadError{Path: src.path, Err: err})
			continue
		}
		var got RuleSet
		var ferrs []error
		if src.json {
			got, ferrs = parseJSONRules(src, data)
		} else {
			got, ferrs = parseTOMLRules(src, data)
		}
		rs = rs.Merge(got)
		errs = append(errs, ferrs...)
	}
	return rs, errs
}

// ruleLists is the permissions table of a rule file.
type ruleLists struct {
	Allow []string `toml:"allow" json:"allow"`
	Ask   []string `toml:"ask" json:"ask"`
	Deny  []string `toml:"deny" json:"deny"`
}

// toRuleSet parses the lists of one file; locate finds the line and column of a
// rule string in the file (0, 0 when unknown).
func toRuleSet(src source, lists ruleLists, locate func(string) (int, int)) (RuleSet, []error) {
	var rs RuleSet
	var errs []error
	for _, l := range []struct {
		b    Behavior
		strs []string
	}{{Allow, lists.Allow}, {Ask, lists.Ask}, {Deny, lists.Deny}} {
		for _, s := range l.strs {
			r, err := ParseRule(s)
			if err != nil {
				line, col := locate(s)
				errs = append(errs, &LoadError{Path: src.path, Line: line, Column: col,
					Err: fmt.Errorf("permissions.%s: %w", l.b, err), Warning: l.b == Allow})
				continue
			}
			r.Source = src.name
			rs = rs.Add(l.b, r)
		}
	}
	return rs, errs
}
