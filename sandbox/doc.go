// Package sandbox confines what the tools do: which paths they may touch (the
// Workspace guard) and how commands run (Run: a session and process group of
// their own, an allowlisted non-interactive environment, timeouts that kill the
// whole group; Executor: the same plus rlimits and, on Linux, Landlock and
// namespaces applied by a re-executed helper, `pincer sandbox-exec`).
//
// Invariants:
//   - Workspace.Resolve returns only absolute, clean paths with every symlink
//     resolved, and only paths inside the workspace root or a directory added
//     with AddDir; everything else is an error. Callers must use the returned
//     path, not the one they passed in.
//   - Run never leaves the command's process group running after a timeout or a
//     cancellation, and returns even when a grandchild keeps the output pipe open.
//   - No command sees a variable of pincer's environment that is not on an
//     allowlist (CommandEnv): API keys never reach commands.
//   - With an enabled Policy and a PID namespace, no process a command started
//     outlives its call, nor pincer (kill -9 included).
//   - An Executor never runs a command with less confinement than its Policy
//     asks for without saying so (Report.Degraded, Result.Notice), and refuses to
//     run at all when Policy.RequireLandlock cannot be met.
//
// # What an enabled Policy enforces on Linux, and how
//
// The Executor starts the helper (pincer itself, through /proc/self/exe) with
// the command line `sandbox-exec --spec JSON -- bash -c CMD`, in a new session,
// with a parent-death signal (SIGKILL), and — where the machine allows — in new
// PID, mount and network namespaces; an unprivileged pincer gets them through a
// user namespace mapping its own uid. The helper then confines itself and runs
// the command (see HelperMain):
//
//   - Lifetime: the helper is PID 1 of the command's PID namespace. It forks the
//     command, forwards signals to it, reaps orphans and exits with the
//     command's status; the kernel then kills everything else in the
//     namespace — `setsid`, `nohup`, double forks, daemons — so when a Bash call
//     ends, everything it started ends. The parent-death signal kills the helper
//     (and so the namespace) when pincer dies, kill -9 included. Go sends it
//     when the *thread* that forked the helper exits, so Run keeps its goroutine
//     locked to that thread until the command is over. The namespace gets its
//     own /proc (other processes, and their /proc/PID/root, are invisible).
//   - Landlock (best effort up to ABI 11): reads and execution everywhere;
//     writes only to the workspace roots, os.TempDir() and /tmp, the toolchain
//     caches (GOCACHE, GOMODCACHE, ~/.npm, ~/.cache incl. pip, cargo's registry
//     and git caches — not ~/.cargo/bin or its config), Policy.WritableRoots,
//     /dev/null and friends, /dev/shm and /dev/pts; never device nodes
//     (MAKE_CHAR, MAKE_BLOCK are not granted anywhere). No signals to processes
//     outside the sandbox (ABI 6+); with Network false, no abstract UNIX sockets
//     either, and no connecting to pathname UNIX sockets outside (ABI 9+).
//   - Protected paths (ProtectedInWorkspace: git's config, hooks and info, also
//     of submodules and worktrees, and what redirects git to another config —
//     commondir, a .git file; .pincer, .claude, .mcp.json, .envrc,
//     .vscode, .idea; AGENTS.md, CLAUDE.md, CLAUDE.local.md,
//     AGENTS.override.md): in a mount namespace, read-only bind mounts, with
//     every directory from the workspace root down to them pinned by a bind
//     mount of itself so that it cannot be renamed away. Git's objects, refs,
//     index, HEAD and logs stay writable: `git add` and `git commit` work.
//     Missing ones: .git/hooks, .git/info and .pincer are created empty (when
//     their parent exists) and mounted; any other protected path a command
//     creates (.claude/settings.json, AGENTS.md, .git/config.worktree, a fresh
//     .git/config that sets more than git init writes) is moved, after the
//     command, into the quarantine (Policy.QuarantineDir, by default
//     $PINCER_HOME/data/quarantine) and the result's Notice says so ("blocked:
//     the command created ..."). A protected path that is a symlink
//     (AGENTS.md -> CLAUDE.md) has its target protected and is put back if a
//     command replaces it. Without a mount namespace, Landlock alone: the
//     writable trees are carved around them (see carve), which leaves the
//     workspace root and .git without new entries — reported as degraded.
//   - Hidden paths (DefaultHiddenPaths: pincer's config, data and run dirs —
//     secrets, store, the daemon's socket — and the HomeSecrets table through
//     HomeSecretPaths: ~/.ssh, ~/.aws, ~/.gnupg, ~/.netrc, ~/.docker, ~/.kube,
//     forges', clouds', registries' and AI CLIs' tokens, the keyrings, pass,
//     browser profiles, histories; SessionSockets: tmux, screen, zellij, X11,
//     Wayland, kitty, wezterm, Emacs, Neovim, VS Code, hidden with the network
//     on too; plus Policy.HiddenPaths): an empty
//     read-only tmpfs over each directory, /dev/null over each file. A hidden
//     directory is hidden whole, wherever it lies: the workspace directories
//     inside it (the session's spill dir under pincer's data dir) are bound
//     back in, the directories from a writable tree down to it pinned, and
//     pincer's own directories made first when missing (see pincerdirs.go;
//     without a mount namespace Landlock carves the trees around them).
//     DaemonSockets (Docker, containerd, Podman, D-Bus, systemd) are hidden
//     as well, network on or off: through them a command could start
//     processes outside its namespace. So is every other pathname socket the
//     kernel lists as bound (BoundSockets, /proc/net/unix, read by the
//     parent) outside the workspace roots, but AllowedSockets with the
//     network on (foreignSockets): a tmux -S anywhere.
//   - /dev/shm: an empty tmpfs of the command's own (privateDevShm), so
//     shared memory works but the host's is neither read nor changed; every
//     command gets a mount namespace for it when the machine allows one
//     (without: the host's, reported as degraded).
//   - Network false (the default, as Codex's workspace-write mode): a network
//     namespace with only its own loopback (up). Without one, Landlock's TCP
//     rules (ABI 4+) block TCP connect and bind; both degradations are
//     reported. A command that fails for lack of network gets NetworkHint's
//     line in Result.Notice. Only the user's config or --allow-network turn it
//     on (a project's .pincer/config.toml can only tighten).
//   - rlimits: CPU time per process (SIGXCPU, SIGKILL 5 s later), file size
//     (SIGXFSZ) and processes, 10 min, 1 GiB and 4096 by default. The process
//     limit is the PID namespace's own pid_max (Linux 6.14+), which binds root;
//     where that cannot be set, RLIMIT_NPROC, which counts all the uid's
//     processes (also outside) and which the kernel never applies to uid 0.
//   - Pre-started helpers (Executor.Warm; see runWarm and warmMain): the
//     helper of the next command confines itself ahead of time and waits on
//     a socketpair only pincer holds the other end of; it runs one command,
//     only when its fingerprint (spec, user namespace, the inodes of every
//     path of the spec and the mount table) matches the call's fresh plan,
//     else the call starts a helper of its own. Its request may be sent
//     before the plan (sendEarly): the helper then waits for a "go" that
//     only that match gives, and is killed with nothing run otherwise.
//     Results, kill, timeout and exit codes are the classic helper's.
//   - Capabilities: every one dropped (bounding, inheritable, ambient), so a
//     root command has none — no mknod, mount, ptrace, raw I/O, DAC override —
//     and no_new_privs is set.
//   - Environment: CommandEnv's allowlist plus GitSafeEnv (git runs no
//     fsmonitor, hook, pager or credential helper a repository configures).
//
// # Limits
//
//   - The protected list is checked at each workspace root and added directory:
//     instruction files and nested repositories deeper down (sub/AGENTS.md,
//     sub/.git/config) are not mounted read-only; the permission layer asks
//     before writes to them it can see, a shell script's writes it cannot.
//   - Quarantine acts after the command: while it runs, a protected path it
//     created exists (and its own processes could read it), and a command that
//     makes one and removes it again leaves no trace to report. If pincer is
//     killed during the call, the check does not run: what the command created
//     stays (the permission layer and the user's next session see it).
//   - With the network on (the user's choice), the daemon sockets stay
//     reachable: a command may ask Docker or systemd (D-Bus) to start
//     processes outside its namespaces.
//   - The network hint is a guess from the output and exit code; a command's
//     own refused connection on its loopback gets it too.
//   - The writable caches are shared with the user's unsandboxed runs: a
//     command can poison them (a crafted GOCACHE entry, an npm tarball).
//   - Reads are confined only by the hidden paths: a command can read the rest
//     of the home directory (shell history, other projects) and, with the
//     network on, send it anywhere.
//   - Without PID and mount namespaces (reported as degraded), background
//     processes outlive their command, hidden paths are readable, and as root
//     there is no process limit.
//   - The parent-death signal is set between fork and exec of the helper; if
//     pincer dies in that instant the helper lives on until its command ends.
//   - Git's diff.external and textconv drivers cannot be disabled by config
//     (GitSafeDiffArgs passes --no-ext-diff --no-textconv); they need a config
//     file, which is protected.
//   - Landlock cannot restrict chmod, chown, utime or stat, only the rights of
//     its ABI (truncate from ABI 3, device ioctls from ABI 5, UDP from ABI 10).
//   - Renames between the pinned directories (workspace root, .git) and other
//     mounts fail with EXDEV; `mv` copies instead, most tools cope.
//   - Entries created after a carve-out started are not writable in it.
package sandbox
