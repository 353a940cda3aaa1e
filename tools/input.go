package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// decodeInput parses a tool's JSON input into T, for Typed. Unknown fields are
// ignored here (the schema, checked by the agent, forbids them); a null or empty
// input decodes to T's zero value so that missing required fields get the tool's
// own message.
func decodeInput[T any](input json.RawMessage) (T, error) {
	var v T
	if len(bytes.TrimSpace(input)) == 0 {
		return v, nil
	}
	if err := json.Unmarshal(input, &v); err != nil {
		return v, fmt.Errorf("invalid input: %w", err)
	}
	return v, nil
}

// checkEnv reports a missing workspace, which would otherwise be a nil dereference.
func checkEnv(env *Env) error {
	if env == nil || env.Workspace == nil {
		return errors.New("no workspace configured")
	}
	return nil
}

// checkFileEnv is checkEnv for the tools that read or change files, which also
// need the session's FileState.
func checkFileEnv(env *Env) error {
	if err := checkEnv(env); err != nil {
		return err
	}
	if env.Files == nil {
		return errors.New("no file state configured")
	}
	return nil
}

// filePath is the common start of a file tool's call: it checks env, requires
// the file_path p and resolves it inside the workspace (sandbox.Workspace.
// Resolve), returning the absolute path.
func filePath(env *Env, p string) (string, error) {
	if err := checkFileEnv(env); err != nil {
		return "", err
	}
	if p == "" {
		return "", errors.New("file_path is required")
	}
	return env.Workspace.Resolve(p)
}

// pathsOf returns the real location of p for a tool's Paths (symlinks
// resolved, inside the workspace or not), so that the permission policy judges
// a link by where it leads; a path that cannot be resolved is returned
// lexically absolute.
func pathsOf(env *Env, p string) []string {
	if env == nil || env.Workspace == nil || p == "" {
		return nil
	}
	if real, err := env.Workspace.Real(p); err == nil {
		return []string{real}
	}
	return []string{env.Workspace.Abs(p)}
}

// summaryPath shortens p for a one-line summary: an absolute path under the current
// directory (where pincer was started, normally the workspace) becomes relative.
func summaryPath(p string) string {
	if !filepath.IsAbs(p) {
		return p
	}
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if rel, err := filepath.Rel(wd, p); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return rel
	}
	return p
}

// oneLine returns the first line of s, cut to at most n runes with "…" when longer
// or when s has more lines.
func oneLine(s string, n int) string {
	s = strings.TrimSpace(s)
	first, rest, multi := strings.Cut(s, "\n")
	first = strings.TrimRight(first, "\r")
	if utf8.RuneCountInString(first) > n {
		r := []rune(first)
		return string(r[:n-1]) + "…"
	}
	if multi && strings.TrimSpace(rest) != "" {
		return first + " …"
	}
	return first
}

// displayPath is abs relative to the workspace root, for tool output.
func displayPath(env *Env, abs string) string {
	return env.Workspace.Rel(abs)
}
