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
//   - An Executor never runs a command with less confinement than its Policy
//     asks for without saying so (Report.Degraded, Result.Notice), and refuses to
//     run at all when Policy.RequireLandlock cannot be met.
//
// # What an enabled Policy enforces on Linux, and how
//
// The Executor starts the helper (pincer itself, through /proc/self/exe) with
// the command line `sandbox-exec --spec JSON -- bash -c CMD`, in a new session,
// and — where the policy needs them — in a new mount namespace (protected
// paths) and a new network namespace (Network false); an unprivileged pincer
// gets them through a user namespace mapping its own uid. The helper then
// confines itself and execs the command (see HelperMain):
//
//   - Landlock (best effort up to ABI 11): reads and execution everywhere;
//     writes only to the workspace roots, os.TempDir() and /tmp, the toolchain
//     caches (GOCACHE, GOMODCACHE, ~/.npm, ~/.cache incl. pip, cargo's registry
//     and git caches — not ~/.cargo/bin or its config), Policy.WritableRoots,
//     /dev/null and friends, /dev/shm and /dev/pts. No signals to processes
//     outside the sandbox (ABI 6+); with Network false, no abstract UNIX sockets
//     either, and no connecting to pathname UNIX sockets outside (ABI 9+).
//   - Protected paths (".git/hooks", ".pincer" by default): in a mount
//     namespace, read-only bind mounts, with every directory from the
//     workspace root down to them pinned by a bind mount of itself so that it
//     cannot be renamed away. Without one, Landlock alone: the writable trees
//     are carved around them (see carve), which leaves the workspace root and
//     .git without new entries — reported as degraded.
//   - Network false: a network namespace with only its own loopback (up).
//     Without one, Landlock's TCP rules (ABI 4+) block TCP connect and bind;
//     both degradations are reported.
//   - rlimits: CPU time per process (SIGXCPU, SIGKILL 5 s later) and file size
//     (SIGXFSZ), 10 min and 1 GiB by default.
//   - no_new_privs; a root helper drops every capability a default container
//     would not have (mount, modules, ptrace, net admin, raw I/O, ...).
//
// # Limits
//
//   - A command that leaves its process group (setsid, setpgid) escapes the
//     group kill at timeout; there is no PID namespace or cgroup yet.
//   - The writable caches are shared with the user's unsandboxed runs: a
//     command can poison them (a crafted GOCACHE entry, an npm tarball).
//   - Writes are confined, reads are not: a command can read ~/.ssh and, with
//     the network on, send it anywhere.
//   - In a mount namespace, a protected path whose parent does not exist (no
//     .git yet) is not protected: a command may create it (`git init` creates
//     hooks). .git/config is writable, and git settings such as core.hooksPath
//     or core.fsmonitor can run programs when the user next runs git.
//   - Landlock cannot restrict chmod, chown, utime or stat, only the rights of
//     its ABI (truncate from ABI 3, device ioctls from ABI 5, UDP from ABI 10).
//   - Renames between the pinned directories (workspace root, .git) and other
//     mounts fail with EXDEV; `mv` copies instead, most tools cope.
//   - Entries created after a carve-out started are not writable in it.
package sandbox
