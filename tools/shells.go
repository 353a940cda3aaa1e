package tools

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"pincer/sandbox"
)

// MaxRunningShells is how many background shells one session may have
// running at once, and the default of how many the whole Run may have
// (ShellQuota); Bash refuses another until one ends (KillShell).
const MaxRunningShells = 16

// Reasons a background shell ended (ShellInfo.Reason), as shell.exited says.
const (
	ShellExited       = "exited"        // its command exited by itself
	ShellKilled       = "killed"        // KillShell (or a person) ended it
	ShellSessionEnded = "session_ended" // the session's process ended it
	ShellTainted      = "tainted"       // pincer ended it: its workspace was tainted while it read unconfined (TaintEndedNote)
)

// ShellInfo describes one background shell of a session.
type ShellInfo struct {
	// ID is what Bash returned as bash_id: "bash_N", N counting the
	// session's shells from 1 in this process (Claude Code's form).
	ID string
	// Command is the command as the model wrote it; Description its
	// description ("" when none was given).
	Command, Description string
	// ToolCallID is the Bash call that started it.
	ToolCallID string
	// Started is when it started.
	Started time.Time
	// Running is true until it has ended; then Reason says why (ShellExited,
	// ShellKilled, ShellSessionEnded, ShellTainted) and ExitCode is its status (128+N for
	// signal N, -1 when unknown).
	Running  bool
	Reason   string
	ExitCode int
}

// ShellEvents are the callbacks of a Shells set, for the event log (tools
// cannot import core/event: core/agent emits shell.started and shell.exited
// from them). Either may be nil. Exited runs on the shell's own goroutine.
type ShellEvents struct {
	Started func(ShellInfo)
	Exited  func(ShellInfo)
}

// Shells is one session's set of background shells (Bash with
// run_in_background), reached by its tool calls through Env.Shells: a call
// sees only its own session's shells, so BashOutput and KillShell of another
// session's ID find nothing. Close ends them all. Safe for concurrent use.
type Shells struct {
	events ShellEvents
	quota  *ShellQuota

	mu     sync.Mutex
	shells map[string]*bgShell
	order  []string
	closed bool
	before int // shells the session's earlier processes numbered (ContinueAfter)
	// earlier are the shells of the session's earlier processes, by ID
	// (RememberEarlier): all ended.
	earlier map[string]ShellInfo
}

// errEnding is the error of a shell started while the set closes.
var errEnding = errors.New("the session is ending: no background shell can start")

// bgShell is one shell of the set.
type bgShell struct {
	info   ShellInfo
	proc   *sandbox.Process
	offset int64         // bytes of output already returned by Read
	reason string        // why it is being ended ("" while nobody ends it)
	slot   func()        // gives its ShellQuota slot back
	ended  chan struct{} // closed once the set has recorded the end
}

// NewShells returns an empty set whose shells report to ev, with a quota of
// its own (NewShellQuota(0, 0)).
func NewShells(ev ShellEvents) *Shells { return NewShellsIn(nil, ev) }

// NewShellsIn is NewShells drawing on q, the Run's quota shared with the
// other sessions' sets; nil gives the set a quota of its own.
func NewShellsIn(q *ShellQuota, ev ShellEvents) *Shells {
	if q == nil {
		q = NewShellQuota(0, 0)
	}
	return &Shells{events: ev, quota: q, shells: map[string]*bgShell{}}
}

// Quota is the set's ShellQuota.
func (s *Shells) Quota() *ShellQuota { return s.quota }

// ErrNoShell is the error for a shell ID the session does not have.
var ErrNoShell = errors.New("no background shell with that ID in this session")

// admit reports whether another shell may start now and takes its slot of
// the quota: release gives it back (add hands it to the shell, which
// releases it when it ends).
func (s *Shells) admit() (release func(), err error) {
	if err := s.admitSession(); err != nil {
		return nil, err
	}
	return s.quota.take()
}

// admitSession is admit's check of the session's own set.
func (s *Shells) admitSession() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errEnding
	}
	running := 0
	for _, sh := range s.shells {
		if sh.info.Running {
			running++
		}
	}
	if running >= MaxRunningShells {
		return fmt.Errorf("%d background shells are running already (at most %d): end one with KillShell first", running, MaxRunningShells)
	}
	return nil
}

// add registers proc, started by tool call callID for command, and returns
// its info. When the set is closed already it kills proc and fails.
func (s *Shells) add(proc *sandbox.Process, command, description, callID string, slot func()) (ShellInfo, error) {
	sh := &bgShell{proc: proc, slot: slot, ended: make(chan struct{}), info: ShellInfo{
		Command: command, Description: description, ToolCallID: callID,
		Started: time.Now(), Running: true, ExitCode: -1,
	}}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		proc.Kill()
		slot()
		return ShellInfo{}, errEnding
	}
	sh.info.ID = fmt.Sprintf("bash_%d", s.before+len(s.order)+1)
	s.shells[sh.info.ID] = sh
	s.order = append(s.order, sh.info.ID)
	info := sh.info
	s.mu.Unlock()
	if s.events.Started != nil {
		s.events.Started(info)
	}
	proc.OnExit(func(res sandbox.Result) { s.ended(sh, res) })
	return info, nil
}

// ended records that sh's process ended with res and reports it.
func (s *Shells) ended(sh *bgShell, res sandbox.Result) {
	s.mu.Lock()
	sh.info.Running = false
	sh.info.ExitCode = res.ExitCode
	sh.info.Reason = sh.reason
	if sh.info.Reason == "" {
		sh.info.Reason = ShellExited
	}
	info := sh.info
	s.mu.Unlock()
	sh.slot()
	if s.events.Exited != nil {
		s.events.Exited(info)
	}
	close(sh.ended)
}

// get returns the shell id, or an EarlierShellError for a shell of an
// earlier process (RememberEarlier), or ErrNoShell.
func (s *Shells) get(id string) (*bgShell, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sh, ok := s.shells[id]
	if !ok {
		if err := s.earlierErr(id); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %q", ErrNoShell, id)
	}
	return sh, nil
}

// Info returns what the set knows of shell id, or ErrNoShell.
func (s *Shells) Info(id string) (ShellInfo, error) {
	sh, err := s.get(id)
	if err != nil {
		return ShellInfo{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return sh.info, nil
}

// List returns every shell of the session, running or ended, oldest first.
func (s *Shells) List() []ShellInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]ShellInfo, 0, len(s.order))
	for _, id := range s.order {
		out = append(out, s.shells[id].info)
	}
	return out
}

// Running is the number of shells still running.
func (s *Shells) Running() int {
	n := 0
	for _, i := range s.List() {
		if i.Running {
			n++
		}
	}
	return n
}

// ShellRead is what Read returns: the shell's state and its new output.
type ShellRead struct {
	Info ShellInfo
	// Output is the output written since the previous Read (the lines
	// matching the filter, when one was given).
	Output string
	// Dropped is how many bytes of it were no longer kept (written faster
	// than they were read: the buffer keeps the most recent ones).
	Dropped int64
	// Filtered is how many lines the filter left out (they are consumed).
	Filtered int
	// Notice is the sandbox's word on the shell, one line each: its
	// degradations (on the first read) and protected paths it created,
	// moved to the quarantine.
	Notice string
}

// Read returns the output of shell id written since the previous Read and
// its state. With filter, only the lines it matches are returned; the others
// are consumed too, as Claude Code's BashOutput. It fails with ErrNoShell.
func (s *Shells) Read(id string, filter *regexp.Regexp) (ShellRead, error) {
	sh, err := s.get(id)
	if err != nil {
		return ShellRead{}, err
	}
	var notes []string
	if n := sh.proc.Notice(); n != "" {
		notes = append(notes, n)
	}
	if _, done := sh.proc.Exited(); !done {
		if n := sh.proc.CheckProtected(); n != "" {
			notes = append(notes, n)
		}
	} else if n := sh.proc.Wait().Notice; n != "" {
		notes = append(notes, n)
	}
	s.mu.Lock()
	data, next, dropped := sh.proc.Output().ReadSince(sh.offset)
	sh.offset = next
	info := sh.info
	s.mu.Unlock()
	if res, done := sh.proc.Exited(); done && info.Running {
		// Ended, but its OnExit has not run yet: say so already.
		info.Running, info.ExitCode, info.Reason = false, res.ExitCode, ShellExited
	}
	r := ShellRead{Info: info, Output: string(data), Dropped: dropped, Notice: strings.Join(notes, "\n")}
	if filter != nil {
		r.Output, r.Filtered = filterLines(r.Output, filter)
	}
	return r, nil
}

// filterLines keeps the lines of s that re matches.
func filterLines(s string, re *regexp.Regexp) (string, int) {
	if s == "" {
		return "", 0
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	kept := slices.DeleteFunc(slices.Clone(lines), func(l string) bool {
		return !re.MatchString(strings.TrimSuffix(l, "\n"))
	})
	return strings.Join(kept, ""), len(lines) - len(kept)
}

// Kill ends shell id (its whole process group and PID namespace) with the
// reason ShellKilled and returns its info once it has ended. A shell that
// had ended already is left as it was. It fails with ErrNoShell.
func (s *Shells) Kill(id string) (ShellInfo, error) {
	if err := s.endFor(id, ShellKilled); err != nil {
		return ShellInfo{}, err
	}
	return s.Info(id)
}

// ContinueAfter makes the set number its shells after bash_n: a resumed
// session's earlier processes gave out bash_1 to bash_n (their shells ended
// with them), and the transcript the model reads names those, so an ID is
// never given twice in one session (a new user, r21: a second bash_1 after
// --continue made BashOutput and KillShell ambiguous). Call it before the
// first shell starts; a smaller n than before changes nothing.
func (s *Shells) ContinueAfter(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.before = max(s.before, n)
}

// endFor ends shell id with reason, as Kill does, returning once it has
// ended; it fails with ErrNoShell.
func (s *Shells) endFor(id, reason string) error {
	sh, err := s.get(id)
	if err != nil {
		return err
	}
	s.end(sh, reason)
	return nil
}

// onEnd arranges for f to run once shell id's process has ended (at once
// when it has, or when there is no such shell); f must not block for long.
func (s *Shells) onEnd(id string, f func()) {
	sh, err := s.get(id)
	if err != nil {
		f()
		return
	}
	sh.proc.OnExit(func(sandbox.Result) { f() })
}

// end kills sh's process with reason (unless it has ended) and waits for
// the set to have recorded its end.
func (s *Shells) end(sh *bgShell, reason string) {
	s.mu.Lock()
	if sh.info.Running && sh.reason == "" {
		if _, done := sh.proc.Exited(); !done {
			sh.reason = reason
		}
	}
	s.mu.Unlock()
	sh.proc.Kill()
	<-sh.ended
}

// Close ends every running shell of the session (reason ShellSessionEnded)
// and refuses new ones; it returns once they have all ended. The session's
// process calls it when it ends (a kill -9 of pincer ends them through the
// parent-death signal instead). Calling it again does nothing more.
func (s *Shells) Close() {
	s.mu.Lock()
	s.closed = true
	var running []*bgShell
	for _, id := range s.order {
		if sh := s.shells[id]; sh.info.Running {
			running = append(running, sh)
		}
	}
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, sh := range running {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.end(sh, ShellSessionEnded)
		}()
	}
	wg.Wait()
}
