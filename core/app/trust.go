package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"pincer/core/config"
	"pincer/core/hook"
	"pincer/core/smallfile"
)

// maxTrustFile is the most bytes the trust record may hold (a digest per
// trusted project: far below this).
const maxTrustFile = 4 << 20

// Trusting a project's hooks. Hooks run outside the sandbox, and the project's
// files (.pincer/config.toml, .claude/settings.json, .claude/settings.local.json)
// come with the repository, which pincer does not trust (docs/SECURITY.md): a
// cloned repository must not run commands the moment pincer starts. So the hooks
// of those files run only when the user has trusted them — with `pincer run
// --trust-project-hooks` (or the workbench's flag of the same name) or `pincer
// trust` — and only as long as the files are byte for byte what was trusted.
// The record is in the user's data directory (trusted-projects.json), outside
// every workspace and hidden from sandboxed commands, so the model cannot write
// it. Untrusted project hooks are still read and validated (a broken file still
// fails closed); they are just not run, with one warning a run.

// trustRecord is trusted-projects.json (config.Paths.Trust).
type trustRecord struct {
	Version  int                     `json:"version"`
	Projects map[string]trustedEntry `json:"projects"` // by the project's absolute real path
}

// trustedEntry is one trusted project.
type trustedEntry struct {
	SHA256    string    `json:"sha256"` // config.Sources.ProjectHookDigest of its hook files when trusted
	TrustedAt time.Time `json:"trusted_at"`
}

func trustPath() (string, error) {
	p := config.PathsFrom(os.Getenv)
	return p.Trust, p.DataErr
}

// projectKey is the key of root in the record: its absolute path, symbolic
// links resolved.
func projectKey(root string) string {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	return root
}

func readTrust() (trustRecord, error) {
	p, err := trustPath()
	if err != nil {
		return trustRecord{Version: 1, Projects: map[string]trustedEntry{}}, err
	}
	data, err := smallfile.Read(p, maxTrustFile) // read at start: a FIFO there must not hang it
	if errors.Is(err, fs.ErrNotExist) {
		data, err = nil, nil
	}
	if err != nil {
		return trustRecord{Version: 1, Projects: map[string]trustedEntry{}}, err
	}
	return parseTrust(p, data)
}

// parseTrust decodes the record read from path (nil data: none yet).
func parseTrust(path string, data []byte) (trustRecord, error) {
	rec := trustRecord{Version: 1, Projects: map[string]trustedEntry{}}
	if data == nil {
		return rec, nil
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return trustRecord{Version: 1, Projects: map[string]trustedEntry{}}, config.JSONError(path, data, err)
	}
	if rec.Projects == nil {
		rec.Projects = map[string]trustedEntry{}
	}
	return rec, nil
}

// isTrusted reports whether root's hook files, whose digest is sum, are trusted.
func isTrusted(root, sum string) bool {
	rec, err := readTrust()
	if err != nil {
		return false
	}
	e, ok := rec.Projects[projectKey(root)]
	return ok && e.SHA256 == sum
}

// recordTrust records that root's hook files, whose digest is sum, are trusted:
// one config.Edit of the record (under its lock, so two projects trusted at
// once both stay recorded; mode 0600).
func recordTrust(root, sum string) error {
	p, err := trustPath()
	if err != nil {
		return err
	}
	return config.Edit(p, 0o600, func(old []byte) ([]byte, error) {
		rec, err := parseTrust(p, old)
		if err != nil {
			return nil, err // a record that does not parse is not overwritten blindly
		}
		rec.Version = 1
		rec.Projects[projectKey(root)] = trustedEntry{SHA256: sum, TrustedAt: time.Now().UTC().Truncate(time.Second)}
		data, err := json.MarshalIndent(rec, "", "  ")
		if err != nil {
			return nil, err
		}
		return append(data, '\n'), nil
	})
}

// hooksTrusted is hooksFrom, keeping the project's hooks only when they are
// trusted (trust: the user passed --trust-project-hooks, which also records the
// trust). The digest is of the bytes the hooks were read from. warning is the
// line to show when project hooks were left out, "" when none were.
func hooksTrusted(src *config.Sources, plugins []config.HookTable, trust bool, report *configReport) (hooks *hook.Runner, warning string) {
	before := len(report.fatal)
	hooks = hooksFrom(src, plugins, report)
	if len(hooks.ProjectDefs()) == 0 {
		return hooks, ""
	}
	root, sum := src.Workspace, src.ProjectHookDigest()
	if trust {
		if len(report.fatal) == before && len(config.Fatal(src.Errors())) == 0 {
			if err := recordTrust(root, sum); err != nil {
				warning = "could not record this project's hook trust: " + err.Error()
			}
		}
		return hooks, warning
	}
	if isTrusted(root, sum) {
		return hooks, ""
	}
	kept, dropped := hooks.WithoutProject()
	return kept, untrustedWarning(root, dropped)
}

// untrustedWarning is the line for the project hooks left out, by file.
func untrustedWarning(root string, dropped []string) string {
	var files []string
	for _, d := range dropped {
		if rel, err := filepath.Rel(root, d); err == nil && !strings.HasPrefix(rel, "..") {
			d = rel
		}
		if !slices.Contains(files, d) {
			files = append(files, d)
		}
	}
	return fmt.Sprintf("%d hook(s) from %s not run: this project's hooks are not trusted (review them, then pass --trust-project-hooks or run pincer trust)",
		len(dropped), strings.Join(files, ", "))
}

// TrustedHook is one project hook that TrustProject trusted: its event, matcher
// ("" for all), command and the file that defines it (relative to the project).
type TrustedHook struct {
	Event, Matcher, Command, File string
}

// TrustProject reads the project's hook files (.pincer/config.toml,
// .claude/settings*.json) and, when they parse, shows their hooks to confirm
// and, when it returns true, records them as trusted until a hook file changes
// ($data/trusted-projects.json, keyed by the project's real path, with the
// SHA-256 of the files as read: what confirm saw is what is trusted). It
// returns the hooks, the project's key, and whether they were recorded (not
// when there are none or confirm said no). A file that does not parse is a
// *ConfigFailure.
func TrustProject(root string, confirm func([]TrustedHook) (bool, error)) (hooks []TrustedHook, key string, trusted bool, err error) {
	key = projectKey(root)
	src := config.Read(config.PathsFrom(os.Getenv), root)
	var report configReport
	report.add(src.Errors())
	runner := hooksFrom(src, nil, &report)
	if err := report.failure(); err != nil {
		return nil, key, false, err
	}
	defs := runner.ProjectDefs()
	for _, ev := range hook.Events {
		for _, d := range defs[ev] {
			rel, _ := filepath.Rel(root, d.Source)
			hooks = append(hooks, TrustedHook{Event: string(ev), Matcher: d.Matcher, Command: d.Command, File: rel})
		}
	}
	if len(hooks) == 0 {
		return nil, key, false, nil
	}
	if ok, err := confirm(hooks); !ok || err != nil {
		return hooks, key, false, err
	}
	return hooks, key, true, recordTrust(root, src.ProjectHookDigest())
}
