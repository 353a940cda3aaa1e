package plugin

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// inside reports whether path (already free of links) is realRoot or under it.
func inside(path, realRoot string) bool {
	rel, err := filepath.Rel(realRoot, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// componentPath resolves a path a manifest names (relative to root, "./x" or
// "x") to an absolute one inside the plugin: an absolute path, one climbing out
// with "..", or one that is or crosses a symbolic link leading out of realRoot
// is refused. A path that does not exist is an error too: the manifest named it.
func componentPath(root, realRoot, rel string) (string, error) {
	if rel == "" {
		return "", fmt.Errorf("an empty path")
	}
	if filepath.IsAbs(rel) {
		return "", fmt.Errorf("%q is absolute: a plugin's paths are relative to its root (\"./%s\")", rel, strings.TrimLeft(rel, "/"))
	}
	clean := filepath.Clean(rel)
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%q leads out of the plugin's directory", rel)
	}
	abs := filepath.Join(root, clean)
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%q does not exist", rel)
		}
		return "", err
	}
	if !inside(real, realRoot) {
		return "", fmt.Errorf("%q is a symbolic link to %s, outside the plugin's directory", rel, real)
	}
	return abs, nil
}

// regularInside reports whether path exists as a regular file whose real path
// is inside realRoot. A path that exists but is not such a file is an error.
func regularInside(path, realRoot string) (bool, error) {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false, err
	}
	if !inside(real, realRoot) {
		return false, fmt.Errorf("a symbolic link to %s, outside the plugin's directory", real)
	}
	if !st.Mode().IsRegular() {
		return false, fmt.Errorf("not a regular file (%s)", st.Mode().Type())
	}
	return true, nil
}

// ExpandRoot replaces ${CLAUDE_PLUGIN_ROOT} and ${PINCER_PLUGIN_ROOT} in s by
// root, as Claude Code does in a plugin's hook commands and server entries
// (the text is replaced as is, not quoted: write "${CLAUDE_PLUGIN_ROOT}/x.sh"
// in quotes where the root may hold spaces).
func ExpandRoot(s, root string) string {
	s = strings.ReplaceAll(s, "${CLAUDE_PLUGIN_ROOT}", root)
	return strings.ReplaceAll(s, "${PINCER_PLUGIN_ROOT}", root)
}
