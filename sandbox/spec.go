package sandbox

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
)

// HelperCommand is the hidden subcommand of pincer that runs one command under
// the OS sandbox: `pincer sandbox-exec --spec JSON -- PROGRAM ARGS...`.
const HelperCommand = "sandbox-exec"

// Exit codes of the helper when it cannot get as far as running the command.
const (
	// ExitSetupFailed: the sandbox could not be set up (bad spec, Landlock
	// required but missing, a mount that failed).
	ExitSetupFailed = 125
	// ExitNotExecutable: the program exists but could not be executed.
	ExitNotExecutable = 126
	// ExitNotFound: the program was not found in PATH.
	ExitNotFound = 127
)

// helperSpec is everything the helper needs to confine the command it then
// executes. The Executor computes it in pincer and passes it as JSON on the
// command line (it holds paths and numbers, never secrets).
type helperSpec struct {
	// Landlock applies the file-system rules: read everywhere, write only to
	// Trees and the device files commands need.
	Landlock bool `json:"landlock,omitempty"`
	// RequireLandlock makes a missing Landlock an error instead of a no-op.
	RequireLandlock bool `json:"requireLandlock,omitempty"`
	// ConfineReads limits reading to ReadDirs and ReadFiles (and the
	// writable trees) instead of everywhere; RequireLandlock comes with it.
	ConfineReads bool     `json:"confineReads,omitempty"`
	ReadDirs     []string `json:"readDirs,omitempty"`
	ReadFiles    []string `json:"readFiles,omitempty"`
	// Trees are the writable trees, each with the paths inside it that stay
	// read-only.
	Trees []treeSpec `json:"trees,omitempty"`
	// MountNS says the helper runs in a mount namespace of its own, where it
	// protects read-only paths with read-only bind mounts instead of carving.
	MountNS bool `json:"mountNS,omitempty"`
	// NetNS says the helper runs in a network namespace of its own: it brings
	// the loopback device up.
	NetNS bool `json:"netNS,omitempty"`
	// PidNS says the helper runs as PID 1 of a PID namespace of its own: it
	// forks the command and waits (see runAsInit), and, with MountNS, mounts a
	// fresh /proc.
	PidNS bool `json:"pidNS,omitempty"`
	// MaxProcesses bounds the number of processes: the PID namespace's pid_max
	// (which binds root too) and RLIMIT_NPROC (per uid, not enforced for root).
	// 0 leaves both alone.
	MaxProcesses int `json:"maxProcesses,omitempty"`
	// RequireProcessLimit makes the helper fail rather than run the command
	// when MaxProcesses cannot bind: no namespace pid_max and root.
	RequireProcessLimit bool `json:"requireProcessLimit,omitempty"`
	// Hidden are the paths the helper covers, in its mount namespace, with
	// an empty read-only tmpfs (directories, with their kept directories bound
	// back in) or /dev/null (files); see hidePaths.
	Hidden []hiddenPath `json:"hidden,omitempty"`
	// Sealed are main repositories of linked worktrees the workspace is
	// rooted at (see gitSeals): in the mount namespace each is bind-mounted
	// read-only whole, the writable trees inside it bound back first.
	Sealed []string `json:"sealed,omitempty"`
	// DenyTCP blocks TCP connect and bind with Landlock (the fallback when no
	// network namespace is available).
	DenyTCP bool `json:"denyTCP,omitempty"`
	// Network allows connecting to UNIX sockets and abstract sockets outside the
	// sandbox; without it Landlock (where the kernel can) scopes them away.
	Network bool `json:"network,omitempty"`
	// CPUSeconds and FileSize are the rlimits; 0 leaves a limit unchanged.
	CPUSeconds uint64 `json:"cpuSeconds,omitempty"`
	FileSize   int64  `json:"fileSize,omitempty"`
	// DropCaps drops, for a helper running as root, every capability a normal
	// container would not have (mounting, modules, raw I/O, ...).
	DropCaps bool `json:"dropCaps,omitempty"`
	// Warm makes the helper a pre-started one (see warmMain): it confines
	// itself, says so on its control socket (fd 3) and waits there for the
	// one command it runs (program, arguments, environment, directory and
	// standard streams); argv after "--" is then empty.
	Warm bool `json:"warm,omitempty"`
	// Probe makes the helper try the namespace operations, print what worked and
	// exit instead of running a command.
	Probe bool `json:"probe,omitempty"`
}

// treeSpec is one writable tree.
type treeSpec struct {
	// Path is absolute and symlink-free.
	Path string `json:"path"`
	// ReadOnly are absolute paths beneath Path that must stay read-only.
	ReadOnly []string `json:"readOnly,omitempty"`
	// Mount allows protecting ReadOnly with bind mounts when MountNS is set
	// (workspace roots); otherwise the tree is always carved (see carve).
	Mount bool `json:"mount,omitempty"`
	// MakeDirs are entries of ReadOnly that the helper creates as empty
	// directories when missing, so that they can be bind-mounted.
	MakeDirs []string `json:"makeDirs,omitempty"`
}

// helperArgs returns the arguments after HelperCommand for running argv under s.
func helperArgs(s helperSpec, argv []string) ([]string, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	return append([]string{"--spec", string(b), "--"}, argv...), nil
}

// parseHelperArgs is the inverse of helperArgs. In probe mode argv may be empty.
func parseHelperArgs(args []string, stderr io.Writer) (helperSpec, []string, error) {
	fs := flag.NewFlagSet("pincer "+HelperCommand, flag.ContinueOnError)
	fs.SetOutput(stderr)
	specJSON := fs.String("spec", "{}", "sandbox specification (JSON, written by pincer)")
	if err := fs.Parse(args); err != nil {
		return helperSpec{}, nil, err
	}
	var s helperSpec
	if err := json.Unmarshal([]byte(*specJSON), &s); err != nil {
		return helperSpec{}, nil, fmt.Errorf("bad --spec: %w", err)
	}
	argv := fs.Args()
	if len(argv) == 0 && !s.Probe && !s.Warm {
		return helperSpec{}, nil, errors.New("no command given (usage: pincer sandbox-exec --spec JSON -- PROGRAM [ARGS...])")
	}
	return s, argv, nil
}
