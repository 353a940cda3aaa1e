package sandbox

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"golang.org/x/sys/unix"
)

// The control protocol of a warm helper (warmMain), over the stream socket
// that is its fd 3 and whose other end only pincer holds:
//
//	helper → pincer  warmReady       confined, waiting for the command
//	pincer → helper  4-byte big-endian length, then a warmRequest as JSON;
//	                 the first bytes carry SCM_RIGHTS with exactly three fds:
//	                 the command's stdin, stdout and stderr
//	                 the helper prepares the command (streams, environment,
//	                 directory, the program's lookup) and runs nothing yet
//	pincer → helper  warmGo          the plan pincer computed meanwhile gives
//	                 the key this helper was confined for: run it (pincer
//	                 kills a helper it does not release; EOF ends it too)
//	helper → pincer  warmTaken       the go is in; the command runs next
//	helper → pincer  4-byte big-endian status, once the command has ended and
//	                 everything else in its PID namespace is dead and reaped
//	                 (runAsInit); then the helper exits
//
// After warmTaken the helper is, to the byte, the classic helper after
// confine, its exit status the command's; the socket stays open only in the
// helper (close-on-exec: the command never has it; the helper is not
// dumpable, so /proc/1/fd/3 cannot be opened). Without a PID namespace the
// helper execs the command in its place, the socket closes on exec, and
// pincer takes the status from the exit.
const (
	warmCtlFD  = 3
	warmReady  = 'r'
	warmGo     = 'g'
	warmTaken  = 't'
	warmMaxReq = 16 << 20 // bytes of request JSON; execve refuses far less (ARG_MAX)
)

// warmRequest is the one command a warm helper runs: what the classic helper
// gets from its command line (Argv), environment (Env) and working directory
// (Dir, absolute).
type warmRequest struct {
	Argv []string `json:"argv"`
	Env  []string `json:"env"`
	Dir  string   `json:"dir"`
}

// warmMain is HelperMain for a pre-started helper (spec.Warm): the control
// socket is made close-on-exec (no command ever inherits it) and the helper
// non-dumpable (nothing may ptrace it or read its memory) before anything
// else; then it confines itself exactly as the classic helper does (mounts,
// /proc, loopback, rlimits, Landlock, capabilities, no_new_privs), catches
// the signals it forwards as PID 1, reports warmReady and waits for one
// request. It then takes the request's standard streams, environment and
// directory as its own and looks the program up, and waits for warmGo
// (none: it exits with nothing run); it refuses the request if a signal
// came while it waited, reports warmTaken, and runs the command as the
// classic helper does (runFound), a failure of the preparation reported
// only then, as the classic helper reports it. Any failure before
// warmTaken exits with ExitSetupFailed and nothing run: pincer sees the
// socket close without warmTaken and runs the command through a classic
// helper instead.
func warmMain(spec helperSpec, stderr io.Writer) int {
	if _, err := unix.FcntlInt(warmCtlFD, unix.F_SETFD, unix.FD_CLOEXEC); err != nil {
		return helperFail(stderr, ExitSetupFailed, fmt.Errorf("control socket: %w", err))
	}
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return helperFail(stderr, ExitSetupFailed, fmt.Errorf("making the helper non-dumpable: %w", err))
	}
	if err := confine(spec); err != nil {
		return helperFail(stderr, ExitSetupFailed, err)
	}
	// Again: a change of credentials may reset it (it does not for
	// dropping capabilities, but the kernel decides).
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return helperFail(stderr, ExitSetupFailed, fmt.Errorf("making the helper non-dumpable: %w", err))
	}
	// The forwarded signals are caught from here on (see runAsInit): the
	// first Notify waits for the os/signal package's own thread, half a
	// millisecond that is better spent before the command is asked for.
	var sigs chan os.Signal
	if spec.PidNS && os.Getpid() == 1 {
		sigs = notifyForwarded()
	}
	if err := writeByte(warmCtlFD, warmReady); err != nil {
		return helperFail(stderr, ExitSetupFailed, err)
	}
	req, fds, err := readWarmRequest(warmCtlFD)
	if err != nil {
		return helperFail(stderr, ExitSetupFailed, err)
	}
	for i, fd := range fds {
		// Dup3 without O_CLOEXEC: these three are the command's own.
		if err := unix.Dup3(fd, i, 0); err != nil {
			return helperFail(stderr, ExitSetupFailed, fmt.Errorf("standard stream %d: %w", i, err))
		}
	}
	for _, fd := range fds {
		if fd > 2 {
			unix.Close(fd)
		}
	}
	// The preparation, before the go (nothing here runs anything of the
	// command's): the request's environment and directory (the classic
	// helper gets them from exec: the environment as given, the directory
	// looked up again through the mounts) and the program's lookup in them.
	os.Clearenv()
	for _, kv := range req.Env {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			_ = os.Setenv(k, v)
		}
	}
	dirErr := os.Chdir(req.Dir)
	var path string
	var lookErr error
	if dirErr == nil {
		path, lookErr = exec.LookPath(req.Argv[0])
	}
	// Nothing more until pincer's plan checked out. No go (pincer killed
	// this helper, or is gone): nothing ran, nothing is said on streams
	// nobody reads.
	if err := readGo(warmCtlFD); err != nil {
		return helperFail(io.Discard, ExitSetupFailed, err)
	}
	// A signal relayed while the helper waited has no command to go to;
	// without the handler it would have ended the helper, so the request
	// is refused (pincer runs it through a classic helper). One relayed
	// from here on is the command's and is forwarded to it, as the classic
	// helper forwards what comes between its Notify and its fork.
	if s, ok := waitedSignal(sigs); ok {
		return helperFail(stderr, ExitSetupFailed, fmt.Errorf("signal %v while waiting for the command", s))
	}
	if err := writeByte(warmCtlFD, warmTaken); err != nil {
		return helperFail(stderr, ExitSetupFailed, err)
	}
	// From here on the helper is the classic one after confine.
	if dirErr != nil {
		return helperFail(stderr, ExitSetupFailed, dirErr)
	}
	return runFound(spec, path, lookErr, req.Argv, stderr, reportStatus, sigs)
}

// readGo waits for warmGo on fd: an error when anything else comes (the
// socket's end among it).
func readGo(fd int) error {
	var b [1]byte
	for {
		n, err := unix.Read(fd, b[:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fmt.Errorf("control socket: %w", err)
		}
		if n != 1 || b[0] != warmGo {
			return errors.New("control socket: no go for the command")
		}
		return nil
	}
}

// waitedSignal empties sigs (nil: nothing to empty) and returns the first
// signal in it whose default action is not to be ignored (SIGWINCH's is).
func waitedSignal(sigs chan os.Signal) (os.Signal, bool) {
	var first os.Signal
	for {
		select {
		case s := <-sigs:
			if first == nil && s != unix.SIGWINCH {
				first = s
			}
		default:
			return first, first != nil
		}
	}
}

// reportStatus sends the command's status on the control socket (4 bytes,
// big-endian) and closes it.
func reportStatus(code int) {
	b := binary.BigEndian.AppendUint32(nil, uint32(int32(code)))
	for {
		_, err := unix.Write(warmCtlFD, b)
		if err != unix.EINTR {
			break
		}
	}
	unix.Close(warmCtlFD)
}

// writeByte writes b to fd.
func writeByte(fd int, b byte) error {
	for {
		_, err := unix.Write(fd, []byte{b})
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fmt.Errorf("control socket: %w", err)
		}
		return nil
	}
}

// readWarmRequest reads one request and its three standard streams from fd
// (received close-on-exec). A request that is malformed, too long or
// without exactly three descriptors is an error.
func readWarmRequest(fd int) (warmRequest, []int, error) {
	var req warmRequest
	buf := make([]byte, 64<<10)
	oob := make([]byte, unix.CmsgSpace(4*4))
	var n, oobn int
	var err error
	for {
		// The length alone (the descriptors come with the first byte read):
		// nothing of what follows the request (the go) is read here.
		n, oobn, _, _, err = unix.Recvmsg(fd, buf[:4], oob, unix.MSG_CMSG_CLOEXEC)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return req, nil, fmt.Errorf("control socket: %w", err)
	}
	fds, err := rightsIn(oob[:oobn])
	if err != nil {
		return req, nil, err
	}
	if len(fds) != 3 {
		closeAll(fds)
		return req, nil, fmt.Errorf("control socket: %d descriptors, want 3", len(fds))
	}
	if n < 4 {
		closeAll(fds)
		return req, nil, errors.New("control socket: request cut short")
	}
	size := int(binary.BigEndian.Uint32(buf[:4]))
	if size > warmMaxReq {
		closeAll(fds)
		return req, nil, fmt.Errorf("control socket: request of %d bytes (at most %d)", size, warmMaxReq)
	}
	body := make([]byte, 0, size)
	for len(body) < size {
		m, err := unix.Read(fd, buf[:min(len(buf), size-len(body))])
		if err == unix.EINTR {
			continue
		}
		if err != nil || m == 0 {
			closeAll(fds)
			return req, nil, errors.New("control socket: request cut short")
		}
		body = append(body, buf[:m]...)
	}
	if err := json.Unmarshal(body, &req); err != nil {
		closeAll(fds)
		return req, nil, fmt.Errorf("control socket: %w", err)
	}
	if len(req.Argv) == 0 || req.Dir == "" {
		closeAll(fds)
		return req, nil, errors.New("control socket: request without a program or directory")
	}
	return req, fds, nil
}

// rightsIn returns the descriptors of the SCM_RIGHTS messages in oob.
func rightsIn(oob []byte) ([]int, error) {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil, fmt.Errorf("control socket: %w", err)
	}
	var fds []int
	for _, m := range msgs {
		got, err := unix.ParseUnixRights(&m)
		if err != nil {
			closeAll(fds)
			return nil, fmt.Errorf("control socket: %w", err)
		}
		fds = append(fds, got...)
	}
	return fds, nil
}

// closeAll closes fds.
func closeAll(fds []int) {
	for _, fd := range fds {
		unix.Close(fd)
	}
}
