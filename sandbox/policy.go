package sandbox

import (
	"slices"
	"time"
)

// Defaults of a Policy's limits, used when the field is zero.
const (
	// DefaultCPUTimeLimit is the CPU time (RLIMIT_CPU) each process of a command
	// may use: SIGXCPU at the limit, SIGKILL a few seconds later.
	DefaultCPUTimeLimit = 10 * time.Minute
	// DefaultFileSizeLimit is the largest file (RLIMIT_FSIZE) a command may write;
	// a write past it fails and the writer gets SIGXFSZ.
	DefaultFileSizeLimit int64 = 1 << 30
)

// DefaultMaxProcesses is how many processes a command may have at once (the
// PID namespace's pid_max, and RLIMIT_NPROC for a non-root uid).
const DefaultMaxProcesses = 4096

// defaultMaxProcesses is what the probe tries.
const defaultMaxProcesses = DefaultMaxProcesses

// ProtectedInWorkspace are the paths, relative to each workspace root and added
// directory, that sandboxed commands may read but never change, create,
// remove or rename: what runs code or grants permissions outside the sandbox
// later (git's executable configuration and hooks, pincer's and other agents'
// and editors' settings, direnv) and the instruction files models obey. The
// same list as core/permission's (a test there checks). Shapes: a trailing "/"
// is a directory (everything beneath it too); "*" matches one path element,
// "**" any number of them (submodules nest); "config*" is config and
// config.worktree. Git's objects, refs, index, HEAD and logs stay writable, so
// `git add` and `git commit` work.
var ProtectedInWorkspace = []string{
	".git/config", ".git/config.worktree", ".git/hooks/", ".git/info/",
	// objects/info/alternates names other object stores git then reads from, a read-only
	// `git show HASH` included (red team r19 H3); the objects themselves stay writable
	".git/objects/info/alternates", ".git/objects/info/http-alternates",
	".git/modules/**/config", ".git/modules/**/hooks/", ".git/modules/**/info/",
	".git/worktrees/*/config*",
	".pincer/", ".claude/", ".mcp.json", ".claude.json", ".envrc", ".vscode/", ".idea/",
	"AGENTS.md", "CLAUDE.md", "CLAUDE.local.md", "AGENTS.override.md",
	// Other tools' files that run code when the person opens, enters or
	// commits in the project (red team r17 F10), each checked for what runs:
	".devcontainer/",                  // devcontainer.json: initializeCommand runs on the host, postCreateCommand & co. in the container
	".cursor/", ".gemini/", ".codex/", // Cursor's, Gemini CLI's and Codex's project settings: MCP servers (programs they start), hooks
	".windsurf/", ".continue/", // Windsurf's and Continue's: MCP servers, workflows and rules another agent obeys
	".opencode/", "opencode.json", "opencode.jsonc", // opencode: plugins (JavaScript it runs), MCP servers, commands
	".crush.json", "crush.json", // Crush: MCP servers and LSP commands it starts
	".aider.conf.yml",                       // aider: lint-cmd and test-cmd, run after its edits
	".npmrc",                                // npm's project config: script-shell and node-options, for a hook's npx (red team r24d F1)
	"rust-toolchain", "rust-toolchain.toml", // rustup's: a toolchain path, which a hook's cargo fmt or rustfmt then runs (r24d F4)
	".python-version", ".node-version", ".tool-versions", // pyenv's, nodenv's, asdf's and mise's: which interpreter a hook's python3 or node is (r24e F4: an old Python ignoring PYTHONSAFEPATH; asdf takes path: versions)
	".zed/",                                   // Zed's project settings: tasks and language server binaries, as .vscode/
	".nvim.lua", ".nvimrc", ".exrc", ".vimrc", // Neovim's and Vim's per-directory scripts ('exrc'), run on opening the editor here
	"mise.toml", ".mise.toml", "mise.local.toml", ".mise.local.toml", ".mise/", // mise: hooks, tasks and env scripts run on entering the directory
	"lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml", "lefthook.toml", ".lefthook.toml", // git hook managers: the commands git runs on commit and push
	"lefthook.json", ".lefthook.json", "lefthook.jsonc", ".lefthook.jsonc", "lefthook-local.*", ".lefthook-local.*",
	".lefthook/", ".lefthook-local/", ".pre-commit-config.yaml",
	".config/lefthook.*", ".config/lefthook-local.*", // lefthook also looks in .config/ for its names without the dot
	"mise.*.toml", ".mise.*.toml", "mise/config.toml", "mise/config.*.toml", // mise's per-environment (MISE_ENV) and mise/ configs
	".config/mise.toml", ".config/mise.*.toml", ".config/mise/", // and under .config/: config.toml, config.NAME.toml, conf.d/*.toml
	".husky/", ".githooks/", // hooks kept in the work tree for core.hooksPath: git runs them outside the sandbox
	// Not protected: .gitattributes (it only selects drivers the person's
	// own config defines; .git/config, which defines them, is protected),
	// .tool-versions (versions, data only), Makefile and package.json
	// scripts (ordinary code the person asks the model to edit).
}

// gitRedirects are files, besides ProtectedInWorkspace, that tell git where a
// repository's configuration lives, so that writing them is as good as
// writing .git/config: a git dir's "commondir" (git reads config from the
// directory it names — also in a main repository's .git) and a linked
// worktree's "gitdir". The sandbox protects them by default too; ".git"
// itself, when it is a file ("gitdir: PATH"), is protected by workspaceTree.
var gitRedirects = []string{
	".git/commondir", ".git/modules/**/commondir", ".git/worktrees/*/commondir", ".git/worktrees/*/gitdir",
}

// DefaultReadOnlyInWorkspace is ProtectedInWorkspace, the default of
// Policy.ReadOnlyInWorkspace.
var DefaultReadOnlyInWorkspace = ProtectedInWorkspace

// makeDirsInWorkspace are the protected directories the sandbox creates (empty)
// when missing but their parent exists, so that they can be bind-mounted
// read-only; the other missing protected paths are guarded by quarantine.
var makeDirsInWorkspace = []string{".git/hooks", ".git/info", ".pincer"}

// Policy says how commands are confined. The zero value runs commands with the
// environment allowlist, in their own session and process group, with the
// default rlimits and no OS sandbox (Enabled false).
//
// Network, WritableRoots, ReadOnlyInWorkspace, NoCacheRoots and RequireLandlock
// only matter when Enabled is set.
type Policy struct {
	// Enabled turns on the OS sandbox: Landlock (reads everywhere, writes only to
	// the workspace roots, the temp dirs, the toolchain caches and WritableRoots),
	// read-only protected paths, and — when Network is false — a network
	// namespace of its own.
	Enabled bool
	// WritableRoots are extra directories (or files) commands may change.
	WritableRoots []string
	// ReadOnlyInWorkspace are paths relative to each workspace root that stay
	// read-only. nil means DefaultReadOnlyInWorkspace; an empty, non-nil slice
	// protects nothing (and lets the whole workspace be written even where no
	// mount namespace is available).
	ReadOnlyInWorkspace []string
	// TrustedCode are more paths relative to each workspace root, read-only as
	// ReadOnlyInWorkspace's (mounted when they exist, quarantined when a
	// command creates them), found when the session starts: what code pincer
	// or git trusts runs from the workspace outside the sandbox (the directory
	// core.hooksPath names, the scripts of the person's hooks and MCP servers;
	// core/app/trusted_code.go). A trailing "/" is a directory.
	TrustedCode []string
	// Network allows network access. When false (the default, as Codex's
	// workspace-write mode), commands run in a new network namespace with only
	// a loopback device of their own, and a command that fails for lack of
	// network gets a hint (NetworkHint) in Result.Notice.
	Network bool
	// MaxProcesses bounds how many processes a command may have at once. Zero
	// means DefaultMaxProcesses; negative means no limit.
	MaxProcesses int
	// HiddenPaths are paths (absolute, or "~/..." for the home directory)
	// commands must not see, besides DefaultHiddenPaths: each is covered with
	// an empty read-only tmpfs (a directory) or /dev/null (a file). Needs a
	// mount namespace.
	HiddenPaths []string
	// QuarantineDir is where protected paths a command created are moved;
	// "" means DefaultQuarantineDir().
	QuarantineDir string
	// EnvAllow names extra environment variables commands inherit from pincer's
	// environment, besides DefaultEnvAllow. A name ending in "*" is a prefix.
	EnvAllow []string
	// CPUTimeLimit bounds the CPU time of each process (RLIMIT_CPU, whole seconds,
	// at least one). Zero means DefaultCPUTimeLimit; negative means no limit.
	CPUTimeLimit time.Duration
	// FileSizeLimit bounds the size of any file a command writes (RLIMIT_FSIZE,
	// bytes). Zero means DefaultFileSizeLimit; negative means no limit.
	FileSizeLimit int64
	// RequireLandlock refuses to run commands when Landlock cannot be enforced on
	// this machine, instead of running them unconfined with a notice.
	RequireLandlock bool
	// ConfineReads confines what commands may read, with Landlock, to the
	// trees they may write, the workspace's directories, the system trees,
	// the person's git configuration, the PATH and the toolchains (see
	// confinedReads); everything else — the rest of the home directory, other
	// users' trees — is unreadable for them. It is for a command a
	// repository's rule alone allowed (permission.Decision.ProjectOnly).
	// It needs Enabled and Landlock: without them Executor.Run fails with
	// ErrReadsNotConfined and runs nothing (see Executor.CanConfineReads).
	ConfineReads bool
	// GitReads are files outside the workspace the person's git reads for
	// every command — the config files their own configuration (system and
	// global, never the repository's) includes, the core.excludesFile and
	// core.attributesFile it names (GitHooks) — that a command with
	// ConfineReads may read too, as it may ~/.gitconfig: git dies on an
	// include it cannot read ("unable to access"). Regular files only: a
	// directory named there grants nothing.
	GitReads []string
	// NoCacheRoots keeps the toolchain caches (Go, npm, pip, cargo, the XDG cache
	// dir) read-only; by default they are writable so that builds and tests work.
	NoCacheRoots bool
}

// DefaultPolicy is the policy of a normal session: the OS sandbox on, network
// cut, default limits, protected and hidden paths. Only the user's own config
// (`[sandbox] network = true`) or --allow-network turns the network on.
func DefaultPolicy() Policy {
	return Policy{Enabled: true}
}

// maxProcesses returns the process limit, 0 meaning none.
func (p Policy) maxProcesses() int { return limitOr(p.MaxProcesses, DefaultMaxProcesses) }

// limitOr reads a Policy limit: zero means def, negative means none (0).
func limitOr[T int | int64](v, def T) T {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// readOnly returns the protected workspace-relative paths in effect.
func (p Policy) readOnly() []string {
	if p.ReadOnlyInWorkspace == nil {
		return append(append(slices.Clone(DefaultReadOnlyInWorkspace), gitRedirects...), p.TrustedCode...)
	}
	return append(slices.Clone(p.ReadOnlyInWorkspace), p.TrustedCode...)
}

// cpuSeconds returns the RLIMIT_CPU value in seconds, 0 meaning no limit.
func (p Policy) cpuSeconds() uint64 {
	d := p.CPUTimeLimit
	switch {
	case d == 0:
		d = DefaultCPUTimeLimit
	case d < 0:
		return 0
	}
	return max(uint64((d+time.Second-1)/time.Second), 1)
}

// fileSize returns the RLIMIT_FSIZE value in bytes, 0 meaning no limit.
func (p Policy) fileSize() int64 { return limitOr(p.FileSizeLimit, DefaultFileSizeLimit) }
