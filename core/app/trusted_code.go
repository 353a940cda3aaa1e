package app

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"pincer/core/hook"
	"pincer/core/mcp"
	"pincer/core/permission"
	"pincer/core/permission/shell"
	"pincer/sandbox"
)

// Trusted code in the workspace: what runs outside the sandbox, from a file
// the model could otherwise rewrite. Found once when the session starts, from
// facts read literally: the directory the person's git takes its hooks from
// (core.hooksPath) and the config files it includes, and the workspace files
// the literal words of the person's hooks and approved stdio MCP servers name.
// Each becomes a protected path of the session (permission.TrustedCode) and a
// read-only path of the sandbox (sandbox.Policy.TrustedCode).

// Why each kind of trusted code is protected, for the reason line.
const (
	whyHooksPath    = "core.hooksPath names it: git runs its hooks outside the sandbox"
	whyGitInclude   = "git reads its configuration from it (an included config file)"
	whyGitUnread    = "the repository's git configuration could not be read, so its git dir is read-only for this session"
	whyHookScript   = "a hook of your configuration runs it outside the sandbox"
	whyServerScript = "an MCP server pincer starts runs it outside the sandbox"
)

// trustedCode returns the trusted code of a session over roots (the workspace
// root first, then added directories), the hooks that will run (the runner
// after the project-trust gate) and the servers configured (only the
// approved, startable stdio ones count), the files the person's git
// configuration makes git read for every command (GitHooks.ReadFiles: for
// sandbox.Policy.GitReads), and a warning when git's configuration could not
// be read.
func trustedCode(ctx context.Context, roots []string, hooks *hook.Runner, servers []mcp.ServerConfig) (out []permission.TrustedCode, gitReads []string, warning string) {
	root := roots[0]
	add := func(p, why string) {
		p = filepath.Clean(p)
		if !underAny(p, roots) {
			return
		}
		for _, tc := range out {
			if tc.Path == p {
				return
			}
		}
		out = append(out, permission.TrustedCode{Path: p, Why: why})
	}
	g, err := sandbox.GitHooksOf(ctx, root)
	if err != nil {
		add(filepath.Join(root, ".git"), whyGitUnread)
		warning = "git's configuration could not be read (" + err.Error() + "): .git is read-only for this session, so git commands that write it fail inside the sandbox"
	}
	if g.HooksDir != "" {
		add(g.HooksDir, whyHooksPath)
	}
	for _, f := range g.ConfigFiles {
		add(f, whyGitInclude)
	}
	gitReads = slices.Clone(g.ReadFiles) // the person's scopes only: never the repository's config files (red team r22 F1)
	for _, list := range hooks.Defs() {
		for _, d := range list {
			for _, p := range namedFiles(d.Command, root) {
				add(p, whyHookScript)
			}
		}
	}
	for _, s := range servers {
		if !s.Approved || s.Disabled || s.Broken != "" || (s.Transport != mcp.TransportStdio && s.Transport != "") {
			continue
		}
		for _, p := range programFiles(append([]string{s.Command}, s.Args...), root) {
			add(p, whyServerScript)
		}
	}
	return out, gitReads, warning
}

// namedFiles returns the workspace files a shell command line run in dir
// names with literal words (programFiles of each simple command), following
// a literal `cd DIR` for the commands after it. $CLAUDE_PROJECT_DIR and
// $PINCER_PROJECT_DIR, which a hook gets, are read as dir.
func namedFiles(command, dir string) []string {
	for _, v := range []string{"CLAUDE_PROJECT_DIR", "PINCER_PROJECT_DIR"} {
		if !strings.ContainsAny(dir, "\"'$`\\ \t\n") {
			command = strings.NewReplacer("${"+v+"}", dir, "$"+v, dir).Replace(command)
		}
	}
	var out []string
	cwd := dir
	for _, c := range shell.Analyze(command).Commands {
		if len(c.Words) == 2 && c.Words[0] == "cd" {
			cwd = joinDir(cwd, c.Words[1])
			continue
		}
		out = append(out, programFiles(c.Words, cwd)...)
	}
	return out
}

// programFiles returns, for a program and its arguments (words) run in dir,
// the program itself when it is a path (it has a "/") and every argument, or
// --option=value's value, that is an existing regular file, each resolved
// against dir. The caller keeps those inside the workspace.
func programFiles(words []string, dir string) []string {
	var out []string
	for i, w := range words {
		if i == 0 {
			if strings.Contains(w, "/") {
				out = append(out, joinDir(dir, w))
			}
			continue
		}
		if _, v, ok := strings.Cut(w, "="); ok && strings.HasPrefix(w, "-") {
			w = v
		}
		if w == "" || strings.HasPrefix(w, "-") {
			continue
		}
		p := joinDir(dir, w)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			out = append(out, p)
		}
	}
	return out
}

// joinDir is p made absolute against dir.
func joinDir(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// underAny reports whether p is one of roots or lies below one.
func underAny(p string, roots []string) bool {
	for _, r := range roots {
		if p == r || strings.HasPrefix(p, strings.TrimSuffix(r, "/")+"/") {
			return true
		}
	}
	return false
}

// trustedCodeRel is the sandbox's form of tcs: each path relative to the
// root it lies in, "/"-terminated for a directory.
func trustedCodeRel(tcs []permission.TrustedCode, roots []string) []string {
	var out []string
	for _, tc := range tcs {
		for _, r := range roots {
			rel, err := filepath.Rel(r, tc.Path)
			if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
				continue
			}
			rel = filepath.ToSlash(rel)
			if fi, err := os.Stat(tc.Path); err != nil || fi.IsDir() {
				rel += "/" // a missing one is guarded whole: the command that makes it is the one to stop
			}
			out = append(out, rel)
			break
		}
	}
	return out
}

// protectTrustedCode finds the Setup's trusted code (after its hooks, MCP
// servers and sandbox policy are read) and adds it to the sandbox's
// read-only paths; a warning when git's configuration could not be read.
func (s *Setup) protectTrustedCode() {
	roots := s.Workspace.Roots()
	tcs, gitReads, warning := trustedCode(context.Background(), roots, s.Hooks, s.MCPServers)
	if warning != "" {
		s.Warnings = append(s.Warnings, warning)
	}
	s.TrustedCode = tcs
	if s.Sandbox != nil {
		s.Sandbox.TrustedCode = append(s.Sandbox.TrustedCode, trustedCodeRel(tcs, roots)...)
		s.Sandbox.GitReads = gitReads
	}
}
