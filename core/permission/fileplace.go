package permission

import (
	"path/filepath"

	"pincer/core/smallfile"
)

// ProjectFiles is where pincer reads a repository's files from at start or
// for a command (skills, commands, instruction files and their imports,
// plugins' files): inside the workspace root, symlinks resolved, and never a
// hidden location (the credentials locations and pincer's own directories the
// file tools never read: hiddenRead), whatever a link says. It is the one
// place those rules are composed (issue 13, the symlinked-skill findings).
func ProjectFiles(root, home string) smallfile.Place {
	return smallfile.Place{Root: filepath.Clean(root), Hidden: hiddenFor(home)}
}

// UserFiles is where pincer reads the user's own files from (~/.claude/skills,
// ~/.claude/commands, ~/.claude/CLAUDE.md): a link may lead anywhere but into
// a hidden location or a kernel file system.
func UserFiles(home string) smallfile.Place {
	return smallfile.Place{Hidden: hiddenFor(home)}
}

// hiddenFor is secretLocation for home, as a smallfile.Place's Hidden.
// A home reached through a symbolic link is checked under its real name too.
func hiddenFor(home string) func(string) bool {
	realHome := home
	if r, err := filepath.EvalSymlinks(home); err == nil && home != "" {
		realHome = r
	}
	return func(p string) bool { return secretLocation(p, home) || secretLocation(p, realHome) }
}
