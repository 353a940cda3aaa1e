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
	out, err := runGit(ctx, dir, sandbox.GitSafeEnvFor(ctx, dir), args...)
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
