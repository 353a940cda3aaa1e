package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// warmAll makes every Executor run its commands through a warm helper, one
// started for each command when none is waiting (the package's tests set it
// to run their suite through this path too); it pre-starts none.
var warmAll bool

// warmCounts counts, for tests and benchmarks, the commands warm helpers
// ran (taken from the pool or started for them) and those that fell back
// to a classic helper although a warm one was asked for.
var warmCounts struct {
	pooled, started, fellBack atomic.Int64
	// gated counts the commands sent early (sendEarly) that got their
	// "go"; gatedAborted those whose helper was killed instead.
	gated, gatedAborted atomic.Int64
}

// maxIdleWarm is how many pre-started helpers wait at once, across
// policies; starting one more stops the one that has waited longest.
const maxIdleWarm = 2

// warmHelper is one pre-started helper (warmMain) and pincer's end of its
// control socket. It runs at most one command.
type warmHelper struct {
	// key is the fingerprint it was confined for (warmKey); "" until it is
	// known to be ready.
	key string
	// hint is the warmHint of the command it was pre-started after.
	hint string
	ctl  *net.UnixConn
	proc *os.Process
	// ready is set once warmReady has been read.
	ready bool
	// done is closed when the helper has exited; state is set before.
	done  chan struct{}
	state *os.ProcessState
}

// warmPool holds the helpers waiting for a command, oldest first, and the
// helper command lines whose helpers failed to get ready (their commands go
// through classic helpers, which report the failure).
var warmPool struct {
	mu     sync.Mutex
	idle   []*warmHelper
	failed map[string]bool
	starts sync.WaitGroup // pre-starts under way
}

// runWarm runs c (wrapped: its classic helper form) through a warm helper
// confined for exactly the command's spec under plan p: a waiting one whose
// fingerprint matches, or one started now. ok is false when no warm helper
// could take the command — nothing of it ran, and the caller runs it through
// a classic helper. With e.Warm, a helper for the next command is started
// once this one has ended.
//
// early, when not nil, is a waiting helper already sent c's request
// (sendEarly) and waiting for its "go": it gets it only when the key it
// was started for is exactly the one p gives now; otherwise (or when
// nothing is to run) it is killed with nothing run, and the command takes
// the path it would have taken without it. runWarm always disposes of it.
func (e *Executor) runWarm(ctx context.Context, p execPlan, c, wrapped Command, early *warmCall) (res Result, ok bool) {
	defer early.abort()
	defer func() {
		if !ok {
			warmCounts.fellBack.Add(1)
		}
	}()
	if p.prepare == nil || ctx.Err() != nil {
		return Result{}, false
	}
	dir, ok := warmDir(c.Dir)
	if !ok {
		return Result{}, false // the classic path reports a bad directory
	}
	wt, err := e.warmTarget(p, c)
	if err != nil {
		return Result{}, false
	}
	argv, spec, world := wt.argv, wt.spec, wt.world
	if e.Warm {
		defer e.prestartWarm(wt, p.prepare)
	}
	if early != nil {
		// The check the "go" waits for: the helper is the one a lookup by
		// the fresh plan's key would have found (takeWarm below).
		if early.w.key == wt.key {
			warmCounts.pooled.Add(1)
			warmCounts.gated.Add(1)
			return early.release(ctx, wrapped)
		}
		warmCounts.gatedAborted.Add(1)
		early.abort()
	}
	w := takeWarm(wt.key)
	if w != nil {
		warmCounts.pooled.Add(1)
	} else {
		warmCounts.started.Add(1)
		if warmFailed(argv) {
			return Result{}, false
		}
		if w, err = startWarm(argv, wt.env, p.prepare); err != nil {
			return Result{}, false
		}
		if !w.awaitReady(ctx) {
			w.close()
			if ctx.Err() == nil {
				markWarmFailed(argv)
			}
			return Result{}, false
		}
		if worldPrint(spec) != world {
			w.close() // the world changed while it confined itself
			return Result{}, false
		}
	}
	req := warmRequest{Argv: append([]string{c.Path}, c.Args...), Env: runEnv(ctx, wrapped), Dir: dir}
	call, ok := w.send(req)
	if !ok {
		return Result{}, false
	}
	return call.release(ctx, wrapped)
}

// warmTarget is what a warm helper for one command must be: its spec (the
// command's, spec.Warm set), command line, environment, whether it starts in
// a user namespace, the world it confines itself in (worldPrint) and the
// fingerprint of all that (warmKey) a waiting helper must match.
type warmTarget struct {
	spec   helperSpec
	argv   []string
	env    []string
	userNS bool
	world  string
	key    string
	// hint is warmHint's for the command: what the pre-started helper is
	// looked up by before the next command's plan (sendEarly).
	hint string
}

// warmTarget is the warmTarget of command c under plan p, now; an error
// when c cannot run under p (commandSpec) or its spec cannot be encoded.
func (e *Executor) warmTarget(p execPlan, c Command) (warmTarget, error) {
	spec, err := e.commandSpec(p, c)
	if err != nil {
		return warmTarget{}, err
	}
	spec.Warm = true
	argv, err := e.warmArgv(spec)
	if err != nil {
		return warmTarget{}, err
	}
	wt := warmTarget{spec: spec, argv: argv, env: warmEnv(e.Policy), userNS: p.report.UserNamespace, world: worldPrint(spec), hint: e.warmHint(c)}
	wt.key = warmKey(argv, wt.userNS, wt.world)
	return wt, nil
}

// warmArgv is the command line of a warm helper for spec.
func (e *Executor) warmArgv(spec helperSpec) ([]string, error) {
	tail, err := helperArgs(spec, nil)
	if err != nil {
		return nil, err
	}
	return append(slices.Clone(e.helper()), tail...), nil
}

// warmDir returns dir (pincer's working directory when "") as an absolute
// path, and false when it is not a directory pincer can see.
func warmDir(dir string) (string, bool) {
	abs, err := filepath.Abs(dir)
	if dir == "" {
		abs, err = os.Getwd()
	}
	if err != nil {
		return "", false
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return "", false
	}
	return abs, true
}

// warmEnv is the environment a warm helper starts with, before it takes its
// command's: the allowlisted part of pincer's (what Go's runtime reads) and
// what a race-detector build adds.
func warmEnv(pol Policy) []string {
	return append(CommandEnvAllow(pol.EnvAllow), raceHelperEnv...)
}

// warmKey is the fingerprint a warm helper must match to run a command:
// its whole command line (the spec, so every policy difference: network,
// hidden paths, trees, limits), whether it is started in a user namespace,
// and world (worldPrint of the spec).
func warmKey(argv []string, userNS bool, world string) string {
	h := sha256.New()
	for _, a := range argv {
		h.Write([]byte(a))
		h.Write([]byte{0})
	}
	h.Write([]byte(strconv.FormatBool(userNS)))
	h.Write([]byte{0})
	h.Write([]byte(world))
	return hex.EncodeToString(h.Sum(nil))
}

// worldPrint fingerprints what a helper's confinement depends on besides its
// spec: the identity (device, inode, type; or absence) of every path the spec
// names, followed and not, since bind mounts and Landlock rules hold inodes,
// not names (a directory renamed over a hidden one would leave a waiting
// helper's tmpfs on the old inode); and this mount namespace's mount table
// (a mount made since is not in a helper that copied the table before).
func worldPrint(spec helperSpec) string {
	var paths []string
	for _, t := range spec.Trees {
		paths = append(paths, t.Path)
		paths = append(paths, t.ReadOnly...)
		paths = append(paths, t.MakeDirs...)
	}
	for _, hp := range spec.Hidden {
		paths = append(paths, hp.Path)
		paths = append(paths, hp.Keep...)
		paths = append(paths, hp.Pin...)
	}
	paths = append(paths, spec.Sealed...)
	paths = append(append(paths, spec.ReadDirs...), spec.ReadFiles...)
	h := sha256.New()
	var st syscall.Stat_t
	for _, p := range paths {
		h.Write([]byte(p))
		// The path itself, then what it leads to: the same file unless it
		// is a symlink (one lstat says so), else the link's target.
		err := syscall.Lstat(p, &st)
		writeIdentity(h, st, err)
		if err == nil && st.Mode&syscall.S_IFMT == syscall.S_IFLNK {
			err = syscall.Stat(p, &st)
		}
		writeIdentity(h, st, err)
	}
	if mi, err := os.ReadFile("/proc/self/mountinfo"); err == nil {
		h.Write(mi)
	} else {
		h.Write([]byte(err.Error()))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// writeIdentity writes the device, inode and type of st to h, or "-" when
// err says there is no st.
func writeIdentity(h io.Writer, st syscall.Stat_t, err error) {
	if err != nil {
		h.Write([]byte{'-'})
		return
	}
	var b [20]byte
	binary.BigEndian.PutUint64(b[:], st.Dev)
	binary.BigEndian.PutUint64(b[8:], st.Ino)
	binary.BigEndian.PutUint32(b[16:], st.Mode&syscall.S_IFMT)
	h.Write(b[:])
}

// prestartWarm starts, in the background, a warm helper for wt's next
// command (prepare: the plan's namespaces) and puts it in the pool once it
// is ready and the world was the same before and after it confined itself.
func (e *Executor) prestartWarm(wt warmTarget, prepare func(*exec.Cmd)) {
	if warmFailed(wt.argv) {
		return
	}
	warmPool.starts.Add(1)
	go func() {
		defer warmPool.starts.Done()
		before := worldPrint(wt.spec)
		w, err := startWarm(wt.argv, wt.env, prepare)
		if err != nil {
			return
		}
		if !w.awaitReady(context.Background()) {
			w.close()
			markWarmFailed(wt.argv)
			return
		}
		if worldPrint(wt.spec) != before {
			w.close()
			return
		}
		w.key = warmKey(wt.argv, wt.userNS, before)
		w.hint = wt.hint
		putWarm(w)
	}()
}

// startWarm starts a warm helper with command line argv, environment env and
// the namespaces and parent-death signal of prepare, in a session of its own
// as Run starts the classic helper. Its control socket is a socketpair:
// pincer's end is close-on-exec, the helper's is its fd 3 only.
func startWarm(argv, env []string, prepare func(*exec.Cmd)) (*warmHelper, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	ours := os.NewFile(uintptr(fds[0]), "warm-control")
	theirs := os.NewFile(uintptr(fds[1]), "warm-control-helper")
	fc, err := net.FileConn(ours)
	ours.Close()
	if err != nil {
		theirs.Close()
		return nil, err
	}
	w := &warmHelper{ctl: fc.(*net.UnixConn), done: make(chan struct{})}
	started := make(chan error, 1)
	go func() {
		// The parent-death signal fires when the thread that forked the
		// helper exits: this goroutine keeps it for the helper's life.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		defer close(w.done)
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = env
		cmd.ExtraFiles = []*os.File{theirs}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		prepare(cmd)
		err := cmd.Start()
		theirs.Close()
		if err != nil {
			started <- err
			return
		}
		w.proc = cmd.Process
		started <- nil
		_ = cmd.Wait()
		w.state = cmd.ProcessState
	}()
	if err := <-started; err != nil {
		w.ctl.Close()
		return nil, err
	}
	return w, nil
}

// awaitReady waits for the helper's warmReady; false when it exited (or
// ctx ended) first.
func (w *warmHelper) awaitReady(ctx context.Context) bool {
	if w.ready {
		return true
	}
	stop := context.AfterFunc(ctx, func() { _ = w.ctl.SetReadDeadline(time.Now()) })
	defer stop()
	var b [1]byte
	if _, err := io.ReadFull(w.ctl, b[:]); err != nil || b[0] != warmReady {
		return false
	}
	w.ready = true
	return true
}

// close stops the helper (if it still runs) and closes the control socket.
func (w *warmHelper) close() {
	if w.proc != nil {
		_ = w.proc.Kill()
	}
	w.ctl.Close()
}

// warmCall is a request handed to a warm helper that waits for its
// "go" (warmGo): the command is not run before release sends it.
type warmCall struct {
	w *warmHelper
	// pr is the read end of the command's stdout and stderr pipe.
	pr *os.File
	// done is set once the call was released or aborted.
	done bool
}

// send hands the helper req, with /dev/null as stdin and one pipe as
// stdout and stderr; the helper prepares the command (streams,
// environment, directory, the program's lookup) and waits for release or
// its death. false (the helper killed) when the request could not be sent.
func (w *warmHelper) send(req warmRequest) (*warmCall, bool) {
	body, err := json.Marshal(req)
	if err != nil || len(body) > warmMaxReq {
		w.close()
		return nil, false
	}
	msg := binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(body)), uint32(len(body)))
	msg = append(msg, body...)
	stdin, err := os.Open(os.DevNull)
	if err != nil {
		w.close()
		return nil, false
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		stdin.Close()
		w.close()
		return nil, false
	}
	_, _, err = w.ctl.WriteMsgUnix(msg, syscall.UnixRights(int(stdin.Fd()), int(pw.Fd()), int(pw.Fd())), nil)
	// The helper holds its own copies now (or never will).
	stdin.Close()
	pw.Close()
	if err != nil {
		pr.Close()
		w.close()
		return nil, false
	}
	return &warmCall{w: w, pr: pr}, true
}

// abort kills the helper of a call not released, with nothing run: it
// never got its "go". Nil or released: nothing to do.
func (wc *warmCall) abort() {
	if wc == nil || wc.done {
		return
	}
	wc.done = true
	wc.pr.Close()
	wc.w.close()
}

// release sends the call's "go" and waits for the command as Run waits
// for a classic helper: SIGTERM to the process group when ctx ends or
// c.Timeout passes, SIGKILL c.KillGrace later, the output pipe waited for
// at most KillGrace after the command's exit, stray group members killed.
// ok is false when the helper exited before it took the request (nothing
// ran).
func (wc *warmCall) release(ctx context.Context, c Command) (Result, bool) {
	wc.done = true
	w, pr := wc.w, wc.pr
	grace, limit := c.killGrace(), c.maxOutput()
	runCtx, cancel := c.runContext(ctx)
	defer cancel()

	start := time.Now()
	_, err := w.ctl.Write([]byte{warmGo})
	if err != nil || !w.awaitTaken(runCtx, grace) {
		pr.Close()
		w.close()
		return Result{}, false
	}
	// The status reader below ends with the socket's end (the helper's
	// exit); then it is closed.
	defer func() { go func() { <-w.done; w.ctl.Close() }() }()

	out := newHeadTail(limit)
	copied := make(chan struct{})
	go func() {
		_, _ = io.Copy(out, pr)
		close(copied)
	}()
	pid := w.proc.Pid
	// The command's status: from the helper once the command and everything
	// it started are dead (warm_helper_linux.go), or from the helper's exit
	// when it dies first or exec'd the command in its place.
	status := make(chan int, 1)
	go func() {
		var b [4]byte
		if _, err := io.ReadFull(w.ctl, b[:]); err == nil {
			status <- int(int32(binary.BigEndian.Uint32(b[:])))
			return
		}
		<-w.done
		status <- exitCode(w.state)
	}()
	// As exec.Cmd with WaitDelay: from the first of the command's end and
	// the end of runCtx, KillGrace for the process and the pipe.
	code := -1
	var deadline <-chan time.Time
	select {
	case code = <-status:
		deadline = time.After(grace)
	case <-runCtx.Done():
		_ = syscall.Kill(-pid, syscall.SIGTERM)
		deadline = time.After(grace)
		select {
		case code = <-status:
		case <-deadline:
			_ = w.proc.Kill()
			code = <-status
			now := make(chan time.Time)
			close(now)
			deadline = now
		}
	}
	select {
	case <-copied:
	case <-deadline:
		pr.Close()
		<-copied
	}
	pr.Close()
	// Whatever is left of the group goes now, as after a classic helper.
	_ = syscall.Kill(-pid, syscall.SIGKILL)

	res := Result{ExitCode: code, Duration: time.Since(start)}
	res.Output, res.OmittedBytes = out.result()
	switch {
	case errors.Is(context.Cause(runCtx), errTimedOut) && ctx.Err() == nil:
		res.TimedOut = true
	case ctx.Err() != nil:
		res.Canceled = true
	}
	return res, true
}

// awaitTaken waits for the helper's warmTaken and reports whether it came.
// When ctx ends first the helper gets grace to answer, as a running
// command gets it between SIGTERM and SIGKILL, and is then killed: a
// cancellation that races with the handoff reaches a command that has
// started as it would reach one started long before (SIGTERM from run,
// then SIGKILL), not as an immediate SIGKILL. The answer is whether the
// helper had taken the request before it died (its command then counts
// as run, and killed).
func (w *warmHelper) awaitTaken(ctx context.Context, grace time.Duration) bool {
	taken := make(chan bool, 1)
	go func() {
		var b [1]byte
		_, err := io.ReadFull(w.ctl, b[:])
		taken <- err == nil && b[0] == warmTaken
	}()
	select {
	case ok := <-taken:
		return ok
	case <-ctx.Done():
	}
	select {
	case ok := <-taken:
		return ok
	case <-time.After(grace):
		_ = w.proc.Kill()
		return <-taken
	}
}

// takeWarm removes and returns the waiting helper with key, nil when none.
func takeWarm(key string) *warmHelper {
	warmPool.mu.Lock()
	defer warmPool.mu.Unlock()
	for i, w := range warmPool.idle {
		if w.key == key {
			warmPool.idle = slices.Delete(warmPool.idle, i, i+1)
			return w
		}
	}
	return nil
}

// putWarm adds w to the waiting helpers, stopping one with the same key
// (w is newer) and, beyond maxIdleWarm, the oldest.
func putWarm(w *warmHelper) {
	warmPool.mu.Lock()
	defer warmPool.mu.Unlock()
	for i, old := range warmPool.idle {
		if old.key == w.key {
			old.close()
			warmPool.idle = slices.Delete(warmPool.idle, i, i+1)
			break
		}
	}
	warmPool.idle = append(warmPool.idle, w)
	for len(warmPool.idle) > maxIdleWarm {
		warmPool.idle[0].close()
		warmPool.idle = slices.Delete(warmPool.idle, 0, 1)
	}
}

// warmFailed reports whether a helper with command line argv failed to get
// ready before.
func warmFailed(argv []string) bool {
	warmPool.mu.Lock()
	defer warmPool.mu.Unlock()
	return warmPool.failed[warmKey(argv, false, "")]
}

// markWarmFailed remembers that a helper with command line argv failed to
// get ready.
func markWarmFailed(argv []string) {
	warmPool.mu.Lock()
	defer warmPool.mu.Unlock()
	if warmPool.failed == nil {
		warmPool.failed = map[string]bool{}
	}
	warmPool.failed[warmKey(argv, false, "")] = true
}

// StopWarm stops every waiting warm helper, once the pre-starts under way
// have ended (a session's end; tests, before their directories go).
func StopWarm() {
	warmPool.starts.Wait()
	warmPool.mu.Lock()
	defer warmPool.mu.Unlock()
	for _, w := range warmPool.idle {
		w.close()
		<-w.done
	}
	warmPool.idle = nil
}
