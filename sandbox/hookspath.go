package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// GitHooks is what the person's own git, run in a workspace, takes its hooks
// and configuration from, as GitHooksOf read it with git's own reader.
type GitHooks struct {
	// HooksDir is the directory core.hooksPath names (absolute and clean; a
	// relative value is taken from the top of the work tree, as git runs
	// hooks there, "~/" from $HOME), "" when it is not set: git then runs the
	// hooks of the git dir, .git/hooks, a protected path.
	HooksDir string
	// ConfigFiles are the config files git read (absolute and clean): the
	// system's, the user's, the repository's and every file they include
	// (include.path, includeIf), in git's order.
	ConfigFiles []string
	// ReadFiles are the files outside the repository the person's own
	// configuration (system and global scopes, what they include) makes git
	// read for every command: their config files themselves (the
	// ConfigFiles of those scopes), core.excludesFile and
	// core.attributesFile (absolute and clean, "~/" from $HOME; the last
	// value of each), the ones set, and every file an include names, its
	// condition holding now or not (includeTarget). The repository's config
	// adds none: not its own file, nor a file it includes, nor the config of
	// a git dir a `.git` file points to (red team r22 F1: an unconditional
	// include.path of .git/config was read through ConfigFiles).
	ReadFiles []string
}

// GitHooksTimeout bounds the two git commands of GitHooksOf.
const GitHooksTimeout = 2 * time.Second

// GitHooksOf reads, for a session in dir, where the person's git finds its
// hooks: `git rev-parse --show-toplevel` (the work tree, "" outside one) then
// `git config --null --show-scope --show-origin --list` there, with the person's
// environment less its secrets (WithoutSecrets) and no override of pincer's,
// so the system's and the user's config files count, and the files they
// include. No helper program runs: git config runs none. Outside a repository
// the user's and the system's settings still count (a global core.hooksPath
// applies to every repository). No git on PATH is no hooks (nothing runs
// them). Errors: git failing on the configuration (a line it cannot parse, a
// repository it refuses, the timeout) — the caller fails closed.
func GitHooksOf(ctx context.Context, dir string) (GitHooks, error) {
	ctx, cancel := context.WithTimeout(ctx, GitHooksTimeout)
	defer cancel()
	if _, err := exec.LookPath("git"); err != nil {
		return GitHooks{}, nil
	}
	base := dir
	if _, top, ok := findRepo(dir); ok && top != "" {
		out, err := gitAsPerson(ctx, dir, "rev-parse", "--show-toplevel")
		if err != nil {
			return GitHooks{}, err
		}
		base = strings.TrimSuffix(out, "\n")
	}
	out, err := gitAsPerson(ctx, base, "config", "--null", "--show-scope", "--show-origin", "--list")
	if err != nil {
		return GitHooks{}, err
	}
	return parseGitHooks(out, base, os.Getenv("HOME")), nil
}

// gitAsPerson runs git ARGS in dir as the person's git would run (their
// environment less secrets) and returns its standard output. An exit status of
// 1 from git config (nothing set) is an empty output.
func gitAsPerson(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = WithoutSecrets(os.Environ())
	cmd.WaitDelay = 200 * time.Millisecond
	var stderr strings.Builder
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 1 && args[0] == "config" && ctx.Err() == nil {
			return "", nil
		}
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		if ctx.Err() != nil {
			msg = "timed out after " + GitHooksTimeout.String()
		}
		return "", fmt.Errorf("git %s: %v: %s", args[0], err, msg)
	}
	return string(b), nil
}

// parseGitHooks reads the output of `git config --null --show-scope
// --show-origin --list` run in base: triples of "SCOPE", "ORIGIN" and
// "KEY\nVALUE" (a key alone when it has no value), NUL-terminated. ReadFiles
// come from the system and global scopes only (the person's, and the files
// they include). Relative file origins are relative to base; only
// "file:" origins are files (not "command line:", "blob:", "standard input:").
// core.excludesFile and core.attributesFile are read as core.hooksPath is
// (hooksDirOf: a path of the same forms).
func parseGitHooks(out, base, home string) GitHooks {
	var g GitHooks
	var excludes, attributes string
	var includes, personsFiles []string
	fields := strings.Split(out, "\x00")
	for i := 0; i+2 < len(fields); i += 3 {
		scope, origin, entry := fields[i], fields[i+1], fields[i+2]
		persons := scope == "system" || scope == "global"
		if f, ok := strings.CutPrefix(origin, "file:"); ok && f != "" {
			if !filepath.IsAbs(f) {
				f = filepath.Join(base, f)
			}
			if f = filepath.Clean(f); !slices.Contains(g.ConfigFiles, f) {
				g.ConfigFiles = append(g.ConfigFiles, f)
			}
			if persons && !slices.Contains(personsFiles, f) {
				personsFiles = append(personsFiles, f)
			}
		}
		key, value, _ := strings.Cut(entry, "\n")
		if strings.ToLower(key) == "core.hookspath" {
			g.HooksDir = hooksDirOf(value, base, home) // the last one wins, as in git
		}
		if !persons {
			// The repository's own config (local, worktree) — or a file it
			// includes — never widens what a confined command may read: a
			// repository shipped with its .git named the home's files
			// there (red team r21c F1).
			continue
		}
		switch strings.ToLower(key) {
		case "core.excludesfile":
			excludes = hooksDirOf(value, base, home)
		case "core.attributesfile":
			attributes = hooksDirOf(value, base, home)
		}
		if f := includeTarget(key, value, origin, base, home); f != "" && !slices.Contains(includes, f) {
			includes = append(includes, f) // active or not: a condition (onbranch:) may hold later
		}
	}
	for _, f := range append(append(personsFiles, excludes, attributes), includes...) {
		if f != "" && !slices.Contains(g.ReadFiles, f) {
			g.ReadFiles = append(g.ReadFiles, f)
		}
	}
	return g
}

// includeTarget is the file an include.path or includeIf.COND.path entry
// read from origin names (absolute and clean: "~/" from home, a relative
// path from the directory of the file holding it, as git resolves it), ""
// for another key. A conditional one counts whether its condition holds now
// or not: `onbranch:feat` holds after a checkout the person makes while the
// session runs, and git dies on an include it cannot read (red team r21b B1).
func includeTarget(key, value, origin, base, home string) string {
	k := strings.ToLower(key)
	if value == "" || !(k == "include.path" || strings.HasPrefix(k, "includeif.") && strings.HasSuffix(k, ".path")) {
		return ""
	}
	dir := base
	if f, ok := strings.CutPrefix(origin, "file:"); ok && f != "" {
		if !filepath.IsAbs(f) {
			f = filepath.Join(base, f)
		}
		dir = filepath.Dir(f)
	}
	return hooksDirOf(value, dir, home)
}

// hooksDirOf is the directory core.hooksPath = value names for a work tree
// at base: "~/" from home, relative from base; "" when value is empty or
// names another user's home ("~NAME/").
func hooksDirOf(value, base, home string) string {
	switch {
	case value == "":
		return ""
	case value == "~" || strings.HasPrefix(value, "~/"):
		if home == "" {
			return ""
		}
		value = filepath.Join(home, strings.TrimPrefix(value, "~"))
	case strings.HasPrefix(value, "~"):
		return ""
	case !filepath.IsAbs(value):
		value = filepath.Join(base, value)
	}
	return filepath.Clean(value)
}
