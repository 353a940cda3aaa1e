package prompt

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"pincer/sandbox"
)

// RunGit runs `git ARGS...` in dir for pincer itself (never for the model), as
// DetectGit's commands run: outside the sandbox, so with every helper program
// the repository's configuration could name switched off (sandbox.GitSafeArgs,
// sandbox.GitSafeEnvFor's overrides for the repository around dir), without
// locks, pager, prompts or secrets in its environment (sandbox.OwnGitEnv). Add
// sandbox.GitSafeDiffArgs after diff, log -p and show. ctx bounds it (use a
// timeout). It returns git's standard output; a failure's error carries the
// first line of git's standard error ("git rev-parse: fatal: ...").
func RunGit(ctx context.Context, dir string, args ...string) (string, error) {
	return NewOwnGit(ctx, dir).Run(ctx, args...)
}

// OwnGit runs several of pincer's own git commands in one repository, as
// RunGit does, with the repository's helper overrides (sandbox.GitSafeEnvFor,
// itself a git command) worked out once, when it is made: use one for a
// sequence of commands that nothing between them changes the repository's
// configuration in (a built-in command's gathering).
type OwnGit struct {
	dir string
	env []string
}

// NewOwnGit reads the helper overrides of the repository around dir.
func NewOwnGit(ctx context.Context, dir string) *OwnGit {
	return &OwnGit{dir: dir, env: sandbox.GitSafeEnvFor(ctx, dir)}
}

// Dir is the directory the commands run in.
func (g *OwnGit) Dir() string { return g.dir }

// Run is RunGit in g's directory with g's overrides.
func (g *OwnGit) Run(ctx context.Context, args ...string) (string, error) {
	out, err := runGit(ctx, g.dir, g.env, args...)
	if err != nil {
		name := "git"
		if len(args) > 0 {
			name += " " + args[0]
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if msg, _, _ := strings.Cut(strings.TrimSpace(string(ee.Stderr)), "\n"); msg != "" {
				return out, fmt.Errorf("%s: %s", name, msg)
			}
		}
		if ctx.Err() != nil {
			return out, fmt.Errorf("%s: %w", name, ctx.Err())
		}
		return out, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}
