package sandbox

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// HelperMain is `pincer sandbox-exec --spec JSON -- PROGRAM ARGS...`, the side of
// the sandbox that runs inside the new process: pincer's Executor starts it
// (in new namespaces when the policy asks), and it confines itself, then
// replaces itself with PROGRAM (execve, same pid, so the Executor's process
// group and timeout handling see the command itself). In order:
//
//  1. in a mount namespace of its own: read-only bind mounts for protected
//     paths (see protectWithMounts), then a fresh chdir so that the working
//     directory sees them;
//  2. in a network namespace of its own: the loopback device up;
//  3. rlimits (CPU time, file size);
//  4. Landlock (see applyLandlock), with the writable trees carved around the
//     protected paths that no mount protects;
//  5. capabilities dropped (a root helper keeps a container's default set;
//     an unprivileged one keeps none), no_new_privs set;
//  6. execve of PROGRAM, looked up in the PATH of its (already filtered)
//     environment.
//
// It returns only on failure, with ExitSetupFailed, ExitNotExecutable or
// ExitNotFound and one line on stderr.
func HelperMain(args []string, stderr io.Writer) int {
	// Capability sets are per thread: do everything on the thread that execs.
	runtime.LockOSThread()
	spec, argv, err := parseHelperArgs(args, stderr)
	if err != nil {
		return helperFail(stderr, ExitSetupFailed, err)
	}
	if spec.Probe {
		probeInHelper(spec, stderr)
		return 0
	}
	if err := confine(spec); err != nil {
		return helperFail(stderr, ExitSetupFailed, err)
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		code := ExitNotFound
		if !errors.Is(err, exec.ErrNotFound) && !errors.Is(err, fs.ErrNotExist) {
			code = ExitNotExecutable
		}
		return helperFail(stderr, code, err)
	}
	err = syscall.Exec(path, argv, os.Environ())
	code := ExitNotExecutable
	if errors.Is(err, fs.ErrNotExist) {
		code = ExitNotFound
	}
	return helperFail(stderr, code, fmt.Errorf("executing %s: %w", path, err))
}

// confine applies steps 1 to 5 of HelperMain.
func confine(spec helperSpec) error {
	mounted := map[string]bool{}
	if spec.MountNS {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		if err := makeMountsPrivate(); err != nil {
			return err
		}
		if mounted, err = protectWithMounts(spec.Trees); err != nil {
			return err
		}
		// The working directory still refers to the directory below the new
		// mounts; look it up again so relative paths go through them.
		if err := os.Chdir(wd); err != nil {
			return err
		}
	}
	if spec.NetNS {
		if err := loopbackUp(); err != nil {
			return err
		}
	}
	if err := applyRlimits(spec.CPUSeconds, spec.FileSize); err != nil {
		return err
	}
	if spec.Landlock {
		if err := applyLandlock(spec, treeGrants(spec.Trees, mounted)); err != nil {
			return err
		}
	}
	if spec.DropCaps {
		if err := dropCapabilities(); err != nil {
			return err
		}
	}
	if spec.Landlock || spec.MountNS || spec.NetNS {
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			return fmt.Errorf("setting no_new_privs: %w", err)
		}
	}
	return nil
}

// probeInHelper tries what spec asks of the namespaces the helper was started
// in and prints one "mount: ok" / "net: ok" line (or the error) for each.
func probeInHelper(spec helperSpec, w io.Writer) {
	if spec.MountNS {
		err := makeMountsPrivate()
		if err == nil {
			err = bindReadOnly(os.TempDir())
		}
		fmt.Fprintln(w, "mount:", okOr(err))
	}
	if spec.NetNS {
		fmt.Fprintln(w, "net:", okOr(loopbackUp()))
	}
}

// okOr returns "ok" for a nil error, else its text.
func okOr(err error) string {
	if err == nil {
		return "ok"
	}
	return err.Error()
}

// helperFail prints err and returns code.
func helperFail(w io.Writer, code int, err error) int {
	fmt.Fprintf(w, "pincer %s: %v\n", HelperCommand, err)
	return code
}
