package sandbox

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// HelperMain is `pincer sandbox-exec --spec JSON -- PROGRAM ARGS...`, the side of
// the sandbox that runs inside the new process: pincer's Executor starts it
// (in new namespaces when the policy asks), and it confines itself, then runs
// PROGRAM. In order:
//
//  1. in a mount namespace of its own: read-only bind mounts for protected
//     paths (see protectWithMounts), an empty read-only tmpfs (or /dev/null)
//     over each hidden path, an empty private tmpfs on /dev/shm (see
//     privateDevShm), and — in a PID namespace too — a fresh /proc and
//     the namespace's pid_max (the process limit, which binds root too); then
//     a fresh chdir so that the working directory sees the mounts;
//  2. in a network namespace of its own: the loopback device up;
//  3. rlimits (CPU time, file size, and — where pid_max could not be set —
//     the number of processes, RLIMIT_NPROC);
//  4. Landlock (see applyLandlock), with the writable trees carved around the
//     protected paths that no mount protects;
//  5. every capability dropped (bounding, inheritable and ambient sets: a
//     root command keeps none, so no mknod, no mount, no raw I/O),
//     no_new_privs set;
//  6. PROGRAM, looked up in the PATH of its (already filtered) environment:
//     as PID 1 of a PID namespace the helper forks it as its only child,
//     forwards the usual signals to it, reaps every orphan and, when the
//     child ends, exits with its status (128+N for signal N) — the kernel
//     then kills whatever else still runs in the namespace (a setsid or
//     nohup background job). Outside a PID namespace the helper execs
//     PROGRAM in its place (same pid).
//
// It returns only on failure, with ExitSetupFailed, ExitNotExecutable or
// ExitNotFound and one line on stderr; as PID 1 it returns PROGRAM's status.
func HelperMain(args []string, stderr io.Writer) int {
	// Capability sets are per thread: do everything on the thread that execs
	// (or forks the command).
	runtime.LockOSThread()
	spec, argv, err := parseHelperArgs(args, stderr)
	if err != nil {
		return helperFail(stderr, ExitSetupFailed, err)
	}
	if spec.Probe {
		probeInHelper(spec, stderr)
		return 0
	}
	if spec.Warm {
		return warmMain(spec, stderr)
	}
	if err := confine(spec); err != nil {
		return helperFail(stderr, ExitSetupFailed, err)
	}
	return runCommand(spec, argv, stderr, nil, nil)
}

// runCommand is step 6 of HelperMain, once the helper is confined. As PID 1,
// report (when not nil) is called with the command's status once the
// command has ended, and sigs (when not nil) already receives the forwarded
// signals (see runAsInit).
func runCommand(spec helperSpec, argv []string, stderr io.Writer, report func(int), sigs chan os.Signal) int {
	path, err := exec.LookPath(argv[0])
	return runFound(spec, path, err, argv, stderr, report, sigs)
}

// runFound is runCommand once argv[0] was looked up: path, or the lookup's
// error err, reported as runCommand reports it.
func runFound(spec helperSpec, path string, err error, argv []string, stderr io.Writer, report func(int), sigs chan os.Signal) int {
	if err != nil {
		code := ExitNotFound
		if !errors.Is(err, exec.ErrNotFound) && !errors.Is(err, fs.ErrNotExist) {
			code = ExitNotExecutable
		}
		return helperFail(stderr, code, err)
	}
	if spec.PidNS && os.Getpid() == 1 {
		return runAsInit(path, argv, stderr, report, sigs)
	}
	err = syscall.Exec(path, argv, os.Environ())
	code := ExitNotExecutable
	if errors.Is(err, fs.ErrNotExist) {
		code = ExitNotFound
	}
	return helperFail(stderr, code, fmt.Errorf("executing %s: %w", path, err))
}

// forwardedSignals are the signals the PID-1 helper passes on to the command
// (a process in the namespace gets no signal from outside that its init has
// no handler for; pincer's timeout sends SIGTERM to the whole process group
// anyway, then SIGKILL, which kills the helper and so the namespace).
var forwardedSignals = []os.Signal{
	syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT,
	syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGALRM, syscall.SIGWINCH,
}

// notifyForwarded returns a channel notified of forwardedSignals, which
// from then on no longer have their default action.
func notifyForwarded() chan os.Signal {
	sigs := make(chan os.Signal, 16)
	signal.Notify(sigs, forwardedSignals...)
	return sigs
}

// runAsInit is step 6 as PID 1: fork and exec path (on this locked thread, so
// the child gets its dropped capabilities and Landlock domain), forward
// signals, reap, and return the child's status once it has ended. sigs is
// the channel notified of forwardedSignals (nil: one is made now; the warm
// helper makes it before it waits). With
// report, everything else in the namespace is killed and reaped, the
// standard streams closed and report called with the status before it
// returns: the caller learns the status without waiting for the kernel to
// tear the namespaces down (the exit of the last process of a mount and
// network namespace takes milliseconds), and nothing the command started is
// left when it does.
func runAsInit(path string, argv []string, stderr io.Writer, report func(int), sigs chan os.Signal) int {
	if sigs == nil {
		sigs = notifyForwarded()
	}
	// Nobody in the namespace may ptrace the helper or read its memory (it
	// still holds capabilities on its other threads).
	_ = unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	pid, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{
		Env: os.Environ(), Files: []uintptr{0, 1, 2},
	})
	if err != nil {
		code := ExitNotExecutable
		if errors.Is(err, fs.ErrNotExist) {
			code = ExitNotFound
		}
		return helperFail(stderr, code, fmt.Errorf("executing %s: %w", path, err))
	}
	go func() {
		for s := range sigs {
			_ = syscall.Kill(pid, s.(syscall.Signal))
		}
	}()
	for {
		var ws syscall.WaitStatus
		wpid, err := syscall.Wait4(-1, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return helperFail(stderr, ExitSetupFailed, fmt.Errorf("waiting for the command: %w", err))
		}
		if wpid != pid {
			continue // an orphan re-parented to us
		}
		code := -1
		switch {
		case ws.Exited():
			code = ws.ExitStatus()
		case ws.Signaled():
			code = 128 + int(ws.Signal())
		default:
			continue
		}
		if report != nil {
			killNamespace()
			for fd := range 3 {
				_ = syscall.Close(fd)
			}
			report(code)
		}
		return code
	}
}

// killNamespace, run by PID 1 of a PID namespace, kills every other process
// in it and reaps them all.
func killNamespace() {
	for {
		_ = syscall.Kill(-1, syscall.SIGKILL)
		reaped := false
		for {
			_, err := syscall.Wait4(-1, nil, 0, nil)
			if err == syscall.EINTR {
				continue
			}
			if err != nil {
				break // ECHILD: none left
			}
			reaped = true
		}
		if !reaped {
			return
		}
	}
}

// confine applies steps 1 to 5 of HelperMain.
func confine(spec helperSpec) error {
	if err := linkFree(plannedPaths(spec)); err != nil {
		return err
	}
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
		if err := sealWithMounts(spec.Sealed, spec.Trees); err != nil {
			return err
		}
		if err := hidePaths(spec.Hidden); err != nil {
			return err
		}
		if err := privateDevShm(spec.Trees); err != nil {
			return err
		}
		// The working directory still refers to the directory below the new
		// mounts; look it up again so relative paths go through them.
		if err := os.Chdir(wd); err != nil {
			return err
		}
	}
	nproc := spec.MaxProcesses
	if spec.PidNS && os.Getpid() == 1 {
		// The Executor gives a PID namespace a mount namespace too.
		if !spec.MountNS {
			if err := makeMountsPrivate(); err != nil {
				return err
			}
		}
		if err := mountProc(); err != nil {
			return err
		}
		if spec.MaxProcesses > 0 {
			// Best effort: kernels before 6.14 have one pid_max for all.
			if setNamespacePidMax(spec.MaxProcesses) == nil {
				// pid_max bounds the namespace; RLIMIT_NPROC would also
				// count the uid's processes outside (a desktop's threads).
				nproc = 0
			}
		}
	}
	if spec.NetNS {
		if err := loopbackUp(); err != nil {
			return err
		}
	}
	if spec.RequireProcessLimit && nproc > 0 && os.Geteuid() == 0 {
		return errProcessLimit
	}
	if err := applyRlimits(spec.CPUSeconds, spec.FileSize, nproc); err != nil {
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
	if spec.PidNS {
		var err error
		if os.Getpid() != 1 {
			err = fmt.Errorf("the helper is pid %d, not 1", os.Getpid())
		} else if spec.MountNS {
			if err = mountProc(); err == nil {
				if perr := setNamespacePidMax(defaultMaxProcesses); perr != nil {
					fmt.Fprintln(w, "pidmax:", perr)
				} else {
					fmt.Fprintln(w, "pidmax: ok")
				}
			}
		}
		fmt.Fprintln(w, "pid:", okOr(err))
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
