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

	"pincer/core/hook"
)

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

// trustFile is the name of the trust record in the data directory.
const trustFile = "trusted-projects.json"

// trustRecord is trusted-projects.json.
type trustRecord struct {
	Version  int                     `json:"version"`
	Projects map[string]trustedEntry `json:"projects"` // by the project's absolute real path
}

// trustedEntry is one trusted project.
type trustedEntry struct {
	SHA256    string    `json:"sha256"` // hook.ProjectDigest of its hook files when trusted
	TrustedAt time.Time `json:"trusted_at"`
}

func trustPath() (string, error) {
	dir, err := DataDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, trustFile), nil
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
	rec := trustRecord{Version: 1, Projects: map[string]trustedEntry{}}
	p, err := trustPath()
	if err != nil {
		return rec, err
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return rec, nil
	}
	if err != nil {
		return rec, err
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return trustRecord{Version: 1, Projects: map[string]trustedEntry{}}, fmt.Errorf("%s: %v", p, err)
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

// recordTrust records that root's hook files, whose digest is sum, are trusted.
func recordTrust(root, sum string) error {
	rec, err := readTrust()
	if err != nil {
		return err // a record that does not parse is not overwritten blindly
	}
	rec.Version = 1
	rec.Projects[projectKey(root)] = trustedEntry{SHA256: sum, TrustedAt: time.Now().UTC().Truncate(time.Second)}
	p, err := trustPath()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), trustFile+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}

// loadHooksTrusted is hook.Load, keeping the project's hooks only when they are
// trusted (trust: the user passed --trust-project-hooks, which also records the
// trust). warning is the line to show when project hooks were left out, "" when
// none were.
func loadHooksTrusted(root string, trust bool) (hooks *hook.Runner, errs []error, warning string) {
	srcs := hook.DefaultSources(root, os.Getenv("PINCER_HOME"))
	before, derr := hook.ProjectDigest(srcs)
	hooks, errs = hook.LoadSources(root, srcs)
	after, derr2 := hook.ProjectDigest(srcs)
	if len(hooks.ProjectDefs()) == 0 {
		return hooks, errs, ""
	}
	// Read the files twice: what was loaded is what was hashed.
	stable := derr == nil && derr2 == nil && before == after
	if trust && stable {
		if len(hook.Fatal(errs)) == 0 {
			if err := recordTrust(root, after); err != nil {
				warning = "could not record this project's hook trust: " + err.Error()
			}
		}
		return hooks, errs, warning
	}
	if stable && isTrusted(root, after) {
		return hooks, errs, ""
	}
	kept, dropped := hooks.WithoutProject()
	return kept, errs, untrustedWarning(root, dropped)
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
// .claude/settings*.json) and, when they parse and did not change while read,
// records them as trusted until a hook file changes ($data/trusted-projects.json,
// keyed by the project's real path, with the SHA-256 of its hook files). It
// returns the hooks trusted (none: nothing recorded) and the project's key. A
// file that does not parse is a *ConfigFailure.
func TrustProject(root string) (hooks []TrustedHook, key string, err error) {
	key = projectKey(root)
	srcs := hook.DefaultSources(root, os.Getenv("PINCER_HOME"))
	before, err := hook.ProjectDigest(srcs)
	if err != nil {
		return nil, key, err
	}
	runner, errs := hook.LoadSources(root, srcs)
	var report configReport
	report.hooks(errs)
	if err := report.failure(); err != nil {
		return nil, key, err
	}
	after, err := hook.ProjectDigest(srcs)
	if err != nil {
		return nil, key, err
	}
	if before != after {
		return nil, key, errors.New("the project's hook files changed while being read; run pincer trust again")
	}
	defs := runner.ProjectDefs()
	for _, ev := range hook.Events {
		for _, d := range defs[ev] {
			rel, _ := filepath.Rel(root, d.Source)
			hooks = append(hooks, TrustedHook{Event: string(ev), Matcher: d.Matcher, Command: d.Command, File: rel})
		}
	}
	if len(hooks) == 0 {
		return nil, key, nil
	}
	return hooks, key, recordTrust(root, after)
}
