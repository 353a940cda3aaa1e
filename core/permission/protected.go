package permission

import (
	"os"
	"path/filepath"
	"strings"

	"pincer/sandbox"
)

// Protected paths (issue 10, class 5): files that change what runs outside the
// sandbox, what pincer allows, or what the model is told. A write to one of them
// by any tool asks in every mode, bypassPermissions included (dontAsk and plan
// deny it), as Claude Code asks for its protected directories; the sandbox mounts
// the same paths read-only (sandbox.DefaultReadOnlyInWorkspace).

// ProtectedPaths are the protected paths, relative to each workspace root and
// added directory, slash-separated and compared case-insensitively (a
// case-insensitive file system opens .GIT/config as .git/config). A trailing "/"
// protects a directory and everything below it; "**/" means at any depth, so the
// instruction files and nested repositories (sub/.git/config) are covered. The
// .git entries hold git's executable configuration (config, hooks, info, and the
// same inside .git/modules/ and the linked worktrees' git dirs) and the files
// that tell git where that configuration lives (commondir, a worktree's gitdir); objects, refs,
// the index, HEAD and logs stay writable so `git add` and `git commit` work. The
// .git directory entry itself is protected too (moving or linking it away).
var ProtectedPaths = []string{
	"**/.git",
	"**/.git/config",
	"**/.git/config.worktree",
	"**/.git/commondir",
	"**/.git/hooks/",
	"**/.git/info/",
	"**/.git/objects/info/alternates",
	"**/.git/objects/info/http-alternates",
	"**/.git/modules",
	"**/.git/modules/**/config",
	"**/.git/modules/**/config.worktree",
	"**/.git/modules/**/commondir",
	"**/.git/modules/**/hooks/",
	"**/.git/modules/**/info/",
	"**/.git/worktrees/*/config",
	"**/.git/worktrees/*/config.worktree",
	"**/.git/worktrees/*/commondir",
	"**/.git/worktrees/*/gitdir",
	"**/.pincer/",
	"**/.claude/",
	"**/.mcp.json",
	"**/.claude.json",
	"**/.envrc",
	"**/.vscode/",
	"**/.idea/",
	"**/AGENTS.md",
	"**/AGENTS.override.md",
	"**/CLAUDE.md",
	"**/CLAUDE.local.md",
	// Other tools' auto-run files (sandbox.ProtectedInWorkspace says what runs).
	"**/.devcontainer/",
	"**/.cursor/",
	"**/.gemini/",
	"**/.codex/",
	"**/.windsurf/",
	"**/.continue/",
	"**/.opencode/",
	"**/opencode.json",
	"**/opencode.jsonc",
	"**/.crush.json",
	"**/crush.json",
	"**/.aider.conf.yml",
	"**/.npmrc",
	"**/rust-toolchain",
	"**/rust-toolchain.toml",
	"**/.python-version",
	"**/.node-version",
	"**/.tool-versions",
	"**/.zed/",
	"**/.nvim.lua",
	"**/.nvimrc",
	"**/.exrc",
	"**/.vimrc",
	"**/mise.toml",
	"**/.mise.toml",
	"**/mise.local.toml",
	"**/.mise.local.toml",
	"**/.mise/",
	"**/lefthook.yml",
	"**/.lefthook.yml",
	"**/lefthook.yaml",
	"**/.lefthook.yaml",
	"**/lefthook.toml",
	"**/.lefthook.toml",
	"**/lefthook.json",
	"**/.lefthook.json",
	"**/lefthook.jsonc",
	"**/.lefthook.jsonc",
	"**/lefthook-local.*",
	"**/.lefthook-local.*",
	"**/.lefthook/",
	"**/.lefthook-local/",
	"**/.config/lefthook.*",
	"**/.config/lefthook-local.*",
	"**/mise.*.toml",
	"**/.mise.*.toml",
	"**/mise/config.toml",
	"**/mise/config.*.toml",
	"**/.config/mise.toml",
	"**/.config/mise.*.toml",
	"**/.config/mise/",
	"**/.pre-commit-config.yaml",
	"**/.husky/",
	"**/.githooks/",
}

// Why each kind of protected path is protected, for the reason line.
const (
	whyGit          = "git's executable configuration (git runs the hooks and helpers it names, outside the sandbox)"
	whyPincer       = "pincer's settings (permission rules, sandbox, hooks)"
	whyClaude       = "Claude Code's settings, which pincer reads for permission rules and hooks"
	whyMCP          = "the MCP server list (each server is a program pincer starts)"
	whyClaudeState  = "Claude Code's ~/.claude.json, whose MCP servers pincer starts without asking"
	whyEnvrc        = "direnv's script, which runs when a shell enters the directory"
	whyEditor       = "the editor's project settings, which can run tasks and programs"
	whyInstructions = "project instructions, which pincer gives the model"
	whyUserConfig   = "pincer's user configuration"
	whyUserGit      = "git's user configuration"
	whyOtherAgent   = "another tool's project settings (MCP servers, plugins, hooks or commands it runs)"
	whyToolConfig   = "a package manager's or toolchain's project file naming programs it runs (npm's script-shell, rustup's toolchain path, the interpreter version pyenv or asdf picks), which a hook outside the sandbox obeys"
	whyEditorScript = "the editor's per-directory script, which vim and neovim run on opening the project"
	whyAutoRun      = "a file whose commands run on entering the directory or on git commit and push"
	whyHooksDir     = "git hooks kept in the work tree (core.hooksPath), which git runs outside the sandbox"
)

// Protected reports whether writing path (absolute) changes a protected path,
// and why ("git's executable configuration ...", "pincer's settings ...",
// "project instructions ..."). The path is cleaned (`..` resolved lexically) and
// compared case-insensitively; symlinks are not resolved here (Evaluate resolves
// them first, see resolveExisting). A path inside one of roots (the workspace
// root and added directories) is matched from the innermost such root, so a
// workspace that itself lies below a .claude directory is not protected as a
// whole; any other path is matched on all its components. pincer's user
// configuration directory ($PINCER_HOME, $XDG_CONFIG_HOME/pincer or
// ~/.config/pincer, read from the environment when the package starts) and git's
// user configuration (~/.gitconfig, ~/.config/git/) are protected too.
func Protected(path string, roots []string) (why string, ok bool) {
	if path == "" || !filepath.IsAbs(path) {
		return "", false
	}
	path = filepath.Clean(path)
	for _, u := range userProtected {
		if inside(path, u.dir) && !inWorktreeRoot(path, u, roots) {
			return u.why, true
		}
	}
	rel := path
	best := ""
	for _, r := range roots {
		if r = filepath.Clean(r); r != "" && r != "." && inside(path, r) && len(r) > len(best) {
			best = r
		}
	}
	if best != "" {
		rel = strings.TrimPrefix(strings.TrimPrefix(path, best), "/")
	}
	return protectedRel(strings.Split(strings.ToLower(filepath.ToSlash(rel)), "/"))
}

// protectedRel matches lower-cased components against ProtectedPaths (the list
// spelled out as code, one case per entry).
func protectedRel(c []string) (string, bool) {
	for i, name := range c {
		last := i == len(c)-1
		switch name {
		case ".pincer":
			return whyPincer, true
		case ".claude":
			return whyClaude, true
		case ".vscode", ".idea", ".zed":
			return whyEditor, true
		case ".devcontainer", ".cursor", ".gemini", ".codex", ".windsurf", ".continue", ".opencode":
			return whyOtherAgent, true
		case ".husky", ".githooks":
			return whyHooksDir, true
		case "opencode.json", "opencode.jsonc", ".crush.json", "crush.json", ".aider.conf.yml":
			if last {
				return whyOtherAgent, true
			}
		case ".npmrc", "rust-toolchain", "rust-toolchain.toml", ".python-version", ".node-version", ".tool-versions":
			if last {
				return whyToolConfig, true
			}
		case ".nvim.lua", ".nvimrc", ".exrc", ".vimrc":
			if last {
				return whyEditorScript, true
			}
		case ".mise", ".lefthook", ".lefthook-local":
			return whyAutoRun, true
		case ".config":
			if hookManagerConfig(c[i+1:]) {
				return whyAutoRun, true
			}
		case "mise":
			if len(c) == i+2 && (c[i+1] == "config.toml" || envToml(c[i+1], "config.")) {
				return whyAutoRun, true
			}
		case "mise.toml", ".mise.toml", "mise.local.toml", ".mise.local.toml", "lefthook.yml", ".lefthook.yml",
			"lefthook.yaml", ".lefthook.yaml", "lefthook.toml", ".lefthook.toml", "lefthook.json", ".lefthook.json",
			".pre-commit-config.yaml":
			if last {
				return whyAutoRun, true
			}
		default:
			if last && hookManagerName(name) {
				return whyAutoRun, true
			}
		case ".mcp.json":
			if last {
				return whyMCP, true
			}
		case ".claude.json":
			if last {
				return whyClaudeState, true
			}
		case ".envrc":
			if last {
				return whyEnvrc, true
			}
		case "agents.md", "agents.override.md", "claude.md", "claude.local.md":
			if last {
				return whyInstructions, true
			}
		case ".git":
			if gitProtected(c[i+1:]) {
				return whyGit, true
			}
		}
	}
	return "", false
}

// hookManagerName reports whether name (lower-cased) is one of the hook
// managers' file names that has a pattern in ProtectedPaths: mise's
// per-environment mise.NAME.toml and .mise.NAME.toml, lefthook's
// lefthook-local.EXT and .lefthook-local.EXT, lefthook.jsonc.
func hookManagerName(name string) bool {
	return envToml(name, "mise.") || envToml(name, ".mise.") || name == "lefthook.jsonc" || name == ".lefthook.jsonc" ||
		strings.HasPrefix(name, "lefthook-local.") || strings.HasPrefix(name, ".lefthook-local.")
}

// envToml reports whether name is PREFIX + NAME + ".toml" with a NAME of at
// least one character (mise.NAME.toml, config.NAME.toml).
func envToml(name, prefix string) bool {
	return len(name) > len(prefix)+len(".toml") && strings.HasPrefix(name, prefix) && strings.HasSuffix(name, ".toml")
}

// hookManagerConfig reports whether rest (the components below a .config
// directory, lower-cased) is a hook manager's configuration there: mise's
// .config/mise/ (config.toml, config.NAME.toml, conf.d/*.toml),
// .config/mise.toml and .config/mise.NAME.toml, lefthook's
// .config/lefthook.EXT and .config/lefthook-local.EXT.
func hookManagerConfig(rest []string) bool {
	if len(rest) == 0 {
		return false
	}
	if rest[0] == "mise" {
		return true
	}
	if len(rest) != 1 {
		return false
	}
	n := rest[0]
	return n == "mise.toml" || envToml(n, "mise.") || strings.HasPrefix(n, "lefthook.") || strings.HasPrefix(n, "lefthook-local.")
}

// gitProtected reports whether rest (the components below a .git directory,
// lower-cased) is git's executable configuration.
func gitProtected(rest []string) bool {
	if len(rest) == 0 {
		return true // the .git entry itself
	}
	switch rest[0] {
	case "config", "config.worktree", "commondir": // commondir: where git reads config from
		return len(rest) == 1
	case "hooks", "info":
		return true
	case "objects": // alternates: git reads objects from the directories it names (red team r19 H3)
		return len(rest) == 3 && rest[1] == "info" && (rest[2] == "alternates" || rest[2] == "http-alternates")
	case "modules": // modules/<name>/ is a git dir of its own (a name may hold slashes)
		for j, c := range rest[1:] {
			if c == "hooks" || c == "info" || j == len(rest)-2 && (c == "config" || c == "config.worktree" || c == "commondir") {
				return true
			}
		}
		return len(rest) == 1
	case "worktrees":
		if len(rest) == 3 {
			switch rest[2] {
			case "config", "config.worktree", "commondir", "gitdir":
				return true
			}
		}
		return len(rest) >= 3 && (rest[2] == "hooks" || rest[2] == "info")
	}
	return false
}

// inWorktreeRoot reports whether path lies in one of roots that is a
// worktree pincer made inside the user configuration directory u
// ($PINCER_HOME/data/worktrees/PROJECT/NAME, where PINCER_HOME holds both):
// a session in that worktree writes its own files (core/worktree; the
// protected paths of ProtectedPaths still hold there, relative to it). A
// workspace opened in pincer's configuration itself gets no such exception.
func inWorktreeRoot(path string, u userDir, roots []string) bool {
	if u.why != whyUserConfig {
		return false
	}
	wts := filepath.Join(u.dir, "data", "worktrees")
	for _, r := range roots {
		if r = filepath.Clean(r); inside(r, wts) && r != wts && filepath.Dir(r) != wts && inside(path, r) {
			return true
		}
	}
	return false
}

// userDir is a protected directory (or file) outside the workspace.
type userDir struct{ dir, why string }

// userProtected are pincer's and git's user configuration, from the environment
// at start-up.
var userProtected = userProtectedDirs(os.Getenv)

func userProtectedDirs(getenv func(string) string) []userDir {
	var out []userDir
	add := func(dir, why string) {
		if dir != "" && filepath.IsAbs(dir) {
			out = append(out, userDir{filepath.Clean(dir), why})
		}
	}
	add(getenv("PINCER_HOME"), whyUserConfig)
	if x := getenv("XDG_CONFIG_HOME"); x != "" {
		add(filepath.Join(x, "pincer"), whyUserConfig)
		add(filepath.Join(x, "git"), whyUserGit)
	}
	if h := getenv("HOME"); h != "" {
		add(filepath.Join(h, ".config", "pincer"), whyUserConfig)
		add(filepath.Join(h, ".config", "git"), whyUserGit)
		add(filepath.Join(h, ".gitconfig"), whyUserGit)
		add(filepath.Join(h, ".claude.json"), whyClaudeState)
	}
	return out
}

// secretLocations are the credentials locations for home: the ones the
// sandbox hides from commands (sandbox.HomeSecretPaths over the one table,
// sandbox.HomeSecrets, with the XDG directories from the environment), plus
// pincer's own configuration below home. Reading them asks even when the
// workspace contains them (the workspace is the home directory).
func secretLocations(home string) []string {
	out := sandbox.HomeSecretPaths(os.Getenv, home)
	if home != "" {
		out = append(out, filepath.Join(home, ".pincer"), filepath.Join(home, ".config", "pincer"))
	}
	return out
}

// secretPath reports whether reading path reads credentials: the files of
// secretLocations, or pincer's user configuration directory (its
// encrypted secrets and their key).
func secretPath(path, home string) bool {
	return secretPathIn(path, home, nil)
}

// secretPathIn is secretPath, except that a path inside an added directory that
// itself lies in a credentials location is not secret: adding it was an explicit
// grant (pincer adds its own tool-results directory below its data directory).
func secretPathIn(path, home string, added []string) bool {
	if !secretLocation(path, home) {
		return false
	}
	for _, d := range added {
		if d != "" && inside(path, d) && secretLocation(d, home) {
			return false
		}
	}
	return true
}

// secretLocation is secretPath without exceptions.
func secretLocation(path, home string) bool {
	for _, d := range secretLocations(home) {
		if inside(path, d) {
			return true
		}
	}
	for _, u := range userProtected {
		if u.why == whyUserConfig && inside(path, u.dir) {
			return true
		}
	}
	for _, d := range pincerDirs(home) {
		if inside(path, d) {
			return true
		}
	}
	return false
}

// pincerDirs are pincer's configuration, data and run directories for home
// (sandbox.PincerDirs, from the environment now), which the sandbox hides.
func pincerDirs(home string) []string { return sandbox.PincerDirs(os.Getenv, home) }

// resolveExisting returns path with the symlinks of its longest existing prefix
// resolved (filepath.EvalSymlinks), the rest joined on. It is the one place the
// permission engine looks at the file system: a path through a symlink in the
// workspace is decided where it leads. A path that does not exist at all is
// returned cleaned. Evaluate memoises it per call (pathMemo).
func resolveExisting(path string) string { return resolveDepth(path, 0, nil) }

// resolveDepth is resolveExisting, following at most 40 dangling links (as the
// kernel's limit on symlinks in one lookup); prefixes, when not nil, caches what
// each directory prefix resolved to ("" for missing) within one evaluation.
func resolveDepth(path string, depth int, prefixes map[string]string) string {
	path = filepath.Clean(path)
	if !filepath.IsAbs(path) {
		return path
	}
	// Walk down from the root: stop at the first missing component; resolve
	// the prefix only when a component is a symlink.
	cur := "/"
	rest := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i, name := range rest {
		if name == "" {
			continue
		}
		next := filepath.Join(cur, name)
		if r, ok := prefixes[next]; ok {
			if r == "" {
				return filepath.Join(append([]string{cur}, rest[i:]...)...)
			}
			cur = r
			continue
		}
		fi, err := os.Lstat(next)
		if err != nil {
			if prefixes != nil {
				prefixes[next] = ""
			}
			return filepath.Join(append([]string{cur}, rest[i:]...)...)
		}
		key := next
		if fi.Mode()&os.ModeSymlink != 0 {
			r, err := filepath.EvalSymlinks(next)
			if err != nil { // dangling: a write creates the file where it points
				to, lerr := os.Readlink(next)
				if lerr != nil || depth >= 40 {
					return filepath.Join(append([]string{next}, rest[i+1:]...)...)
				}
				if !filepath.IsAbs(to) {
					to = filepath.Join(cur, to)
				}
				return resolveDepth(filepath.Join(append([]string{to}, rest[i+1:]...)...), depth+1, prefixes)
			}
			next = r
		}
		if prefixes != nil {
			prefixes[key] = next
		}
		cur = next
	}
	return cur
}

// protectedHome is Protected plus the user configuration below home (the
// caller's home directory, which may differ from the environment's).
func protectedHome(path string, roots []string, home string) (string, bool) {
	if why, ok := Protected(path, roots); ok {
		return why, true
	}
	if home != "" {
		for _, u := range userProtectedDirs(func(k string) string {
			if k == "HOME" {
				return home
			}
			return ""
		}) {
			if inside(path, u.dir) {
				return u.why, true
			}
		}
	}
	return "", false
}

// protectedIn reports the first of paths that is protected, looked at both as
// given and with symlinks resolved (against the resolved roots too), and on
// the file system: a path inside a git dir under another name than .git
// (gitDirProtected).
func protectedIn(paths []string, roots []string, home string, res func(string) string) (path, why string, ok bool) {
	var resolvedRoots []string
	for _, p := range paths {
		if why, ok := protectedHome(p, roots, home); ok {
			return p, why, true
		}
		r := res(p)
		if resolvedRoots == nil {
			resolvedRoots = resolveAll(roots, res)
		}
		if r != p {
			if why, ok := protectedHome(r, resolvedRoots, home); ok {
				return p + " (" + r + ")", why, true
			}
		}
		if gitDirProtected(r, resolvedRoots) {
			if r != p {
				return p + " (" + r + ")", whyGit, true
			}
			return p, whyGit, true
		}
	}
	return "", "", false
}

// resolveAll resolves each of paths with res.
func resolveAll(paths []string, res func(string) string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if p != "" {
			out = append(out, res(p))
		}
	}
	return out
}

// insideRoots reports whether path (r when resolved) is inside one of roots,
// both lexically and with symlinks resolved (a symlink in the workspace that
// leads out is outside).
func insideRoots(path, r string, roots, resolvedRoots []string) bool {
	if !allInside([]string{path}, roots...) {
		return false
	}
	return r == path || allInside([]string{r}, resolvedRoots...) || allInside([]string{r}, roots...)
}

// pathMemo caches symlink resolution for one evaluation: a command names the
// same directories many times.
type pathMemo map[string]string

// resolver returns resolveExisting through m (m caches directory prefixes).
func (m pathMemo) resolver() func(string) string {
	return func(p string) string { return resolveDepth(p, 0, m) }
}

// namesProtected reports whether a program's inline code (one word of it) names
// a protected path: a path-like run of characters in it that Protected accepts
// relative to the workspace (`open('.git/hooks/pre-commit', 'w')`). It is a
// heuristic for code the engine cannot read; the sandbox mounts the same paths
// read-only.
func namesProtected(code string) (name, why string, ok bool) {
	lower := strings.ToLower(code)
	if !strings.Contains(lower, ".git") && !strings.Contains(lower, ".pincer") && !strings.Contains(lower, ".claude") &&
		!strings.Contains(lower, ".envrc") && !strings.Contains(lower, ".mcp.json") && !strings.Contains(lower, ".vscode") &&
		!strings.Contains(lower, ".idea") && !strings.Contains(lower, "agents.") && !strings.Contains(lower, "claude.") {
		return "", "", false
	}
	for _, tok := range strings.FieldsFunc(code, func(r rune) bool {
		return !(r == '.' || r == '/' || r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		p := tok
		if !filepath.IsAbs(p) {
			p = filepath.Join("/\x00ws", p)
		}
		if why, ok := Protected(p, []string{"/\x00ws"}); ok {
			return tok, why, true
		}
	}
	return "", "", false
}
