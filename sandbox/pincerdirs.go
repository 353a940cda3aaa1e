package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// pincer's own directories (PincerDirs: config, data, run) hold the records
// only a person may write: mcp-approvals.json (a project's MCP servers
// approved), trusted-projects.json (its hooks trusted), plugins.json, the user
// config.toml, skills/ and commands/. Wherever they lie — also inside a root
// commands may write (PINCER_HOME under /tmp, in the workspace, in an
// --add-dir) — a sandboxed command must neither read nor write them, nor
// create a file in them that does not exist yet. In a mount namespace each is
// covered whole (hidePaths: an empty read-only tmpfs, the directories added to
// the workspace — the session's spill directory — bound back in, the
// directories on the way pinned); without one, Landlock keeps each read-only
// by carving the writable trees around it (carvePincerDirs).

// activePincerDirs is PincerDirs without the run dir's fallback
// ($TMPDIR/pincer-<uid>) unless it is the run dir in use (neither PINCER_HOME
// nor XDG_RUNTIME_DIR set): the directories made when missing and, without a
// mount namespace, carved around (a carved /tmp accepts no new entries).
func activePincerDirs(getenv func(string) string, home string) []string {
	dirs := PincerDirs(getenv, home)
	if getenv("PINCER_HOME") == "" && getenv("XDG_RUNTIME_DIR") == "" {
		return dirs
	}
	tmp := getenv("TMPDIR")
	if tmp == "" {
		tmp = "/tmp"
	}
	fallback := filepath.Clean(filepath.Join(tmp, fmt.Sprintf("pincer-%d", os.Getuid())))
	if getenv("PINCER_HOME") != "" && within(getenv("PINCER_HOME"), fallback) {
		return dirs // the fallback is inside PINCER_HOME itself
	}
	return slices.DeleteFunc(dirs, func(d string) bool { return d == fallback })
}

// homeDir is the user's home directory, "" when unknown.
func homeDir() string {
	h, _ := os.UserHomeDir()
	return h
}

// treePaths returns the paths of trees.
func treePaths(trees []treeSpec) []string {
	out := make([]string, 0, len(trees))
	for _, t := range trees {
		out = append(out, t.Path)
	}
	return out
}

// ensurePincerDirs returns dirs resolved (the real location of each, through
// its deepest existing ancestor) and creates, mode 0700, each one that does
// not exist yet but lies in a writable tree — a command could otherwise make
// it, with records of its own in it, before pincer does. It fails (and the
// command does not run) when one cannot be made.
func ensurePincerDirs(dirs []string, trees []treeSpec) ([]string, error) {
	var out []string
	for _, d := range dirs {
		hops := 0
		real, err := resolveReal(d, &hops)
		if err != nil {
			return nil, fmt.Errorf("sandbox: pincer's directory %s: %w", d, err)
		}
		if _, err := os.Lstat(real); errors.Is(err, fs.ErrNotExist) &&
			slices.ContainsFunc(trees, func(t treeSpec) bool { return within(t.Path, real) }) {
			if err := os.MkdirAll(real, 0o700); err != nil {
				return nil, fmt.Errorf("sandbox: pincer's directory %s lies in a writable root and cannot be made: %w", real, err)
			}
		}
		if !slices.Contains(out, real) {
			out = append(out, real)
		}
	}
	return out, nil
}

// carvePincerDirs adds each of dirs (resolved) that lies strictly inside a
// tree to that tree's read-only paths, so that Landlock carves the tree around
// it (treeGrants) when no mount namespace can cover it; it returns the trees
// and the directories so added.
func carvePincerDirs(trees []treeSpec, dirs []string) ([]treeSpec, []string) {
	var carved []string
	out := slices.Clone(trees)
	for i := range out {
		for _, d := range dirs {
			if d == out[i].Path || !within(out[i].Path, d) {
				continue
			}
			if !slices.Contains(out[i].ReadOnly, d) {
				out[i].ReadOnly = append(slices.Clone(out[i].ReadOnly), d)
			}
			if !slices.Contains(carved, d) {
				carved = append(carved, d)
			}
		}
	}
	return out, carved
}

// OwnDirFor returns the one of pincer's own directories (PincerDirs, resolved
// where they exist) that the real path p lies in, unless p also lies in a
// directory of granted (workspace roots and directories added to the
// workspace) that itself lies in that directory — the session's spill
// directory, or a workspace opened inside pincer's config directory on
// purpose. ok is false when p is not in one. The file tools refuse such paths
// (see Workspace.Resolve), as the sandbox hides them from commands.
func OwnDirFor(p string, granted []string) (dir string, ok bool) {
	return ownDirIn(p, ownDirsNow(), granted)
}

// ownDirsNow returns PincerDirs from the environment now, each as written and
// resolved. The resolved location of a directory that exists is remembered
// (ownReal): every file operation of the tools asks.
func ownDirsNow() []string {
	var out []string
	for _, d := range PincerDirs(os.Getenv, homeDir()) {
		r, ok := ownReal.Load(d)
		if !ok {
			real := realOr(d)
			if _, err := os.Lstat(real); err == nil {
				ownReal.Store(d, real)
			}
			r = real
		}
		out = append(out, d, r.(string))
	}
	return dedupe(out)
}

// ownReal maps a directory of PincerDirs to its resolved location.
var ownReal sync.Map

// ownDirIn is OwnDirFor against the directories own.
func ownDirIn(p string, own, granted []string) (string, bool) {
	for _, c := range own {
		if within(c, p) && !slices.ContainsFunc(granted, func(g string) bool { return within(c, g) && within(g, p) }) {
			return c, true
		}
	}
	return "", false
}

// realOr returns p with its symlinks resolved (through its deepest existing
// ancestor), or p when it cannot be.
func realOr(p string) string {
	hops := 0
	if r, err := resolveReal(p, &hops); err == nil {
		return r
	}
	return p
}
