package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// Claude Code's user files that pincer trusts as the person's own: ~/.claude
// (settings.json with its hooks and MCP approvals, skills/, commands/,
// CLAUDE.md) and ~/.claude.json (MCP servers of the user and local scopes).
// Where HOME lies inside a tree commands may write (HOME under /tmp, or in the
// workspace), a sandboxed command could otherwise write them and give the next
// run hooks, servers or instructions the person never wrote (red team, issue
// 13). There they are covered as pincer's own directories are: ~/.claude whole
// (made 0700 when missing), ~/.claude.json hidden as a file (made "{}", 0600,
// when missing, so that no command can create it first). Outside writable
// trees Landlock already keeps them read-only, and nothing changes.

// claudeUserPaths returns ~/.claude and ~/.claude.json of home when they lie
// in one of trees (resolved through their deepest existing ancestor), creating
// the ones missing; none when home is "" or outside every tree. It fails (the
// command does not run) when one cannot be made.
func claudeUserPaths(home string, trees []treeSpec) (dirs, files []string, err error) {
	if home == "" {
		return nil, nil, nil
	}
	inTree := func(p string) bool {
		return slices.ContainsFunc(trees, func(t treeSpec) bool { return within(t.Path, p) })
	}
	dir, file := realOr(filepath.Join(home, ".claude")), realOr(filepath.Join(home, ".claude.json"))
	if inTree(dir) {
		if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
			if err := os.MkdirAll(dir, 0o700); err != nil {
				return nil, nil, fmt.Errorf("sandbox: %s lies in a writable root and cannot be made: %w", dir, err)
			}
		}
		dirs = append(dirs, dir)
	}
	if inTree(file) {
		if _, err := os.Lstat(file); errors.Is(err, fs.ErrNotExist) {
			f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
			if err == nil {
				_, err = f.WriteString("{}\n")
				err = errors.Join(err, f.Close())
			}
			if err != nil && !errors.Is(err, fs.ErrExist) {
				return nil, nil, fmt.Errorf("sandbox: %s lies in a writable root and cannot be made: %w", file, err)
			}
		}
		files = append(files, file)
	}
	return dirs, files, nil
}
