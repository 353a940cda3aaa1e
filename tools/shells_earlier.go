package tools

import (
	"errors"
	"fmt"
)

// ShellProcessEnded is the reason of a background shell whose end a later
// process recorded: the pincer process that ran it stopped without
// recording it (kill -9, a crash), and the shell ended with it.
const ShellProcessEnded = "process_ended"

// EarlierShellError is the error of Shells for a shell ID that an earlier
// pincer process of the session gave out (RememberEarlier): that shell
// ended with, or before, that process, and this one never ran it. Its
// message says so (EarlierShellNote); it unwraps to ErrNoShell, as this
// process has no such shell.
type EarlierShellError struct {
	// Info is the shell as the session's log last told it (never Running).
	Info ShellInfo
}

// Error is EarlierShellNote of the shell.
func (e *EarlierShellError) Error() string { return EarlierShellNote(e.Info) }

// Unwrap is ErrNoShell: the shell is none of this process's.
func (e *EarlierShellError) Unwrap() error { return ErrNoShell }

// EarlierShellNote tells the model the truth about a shell of an earlier
// run: that it belonged to that run, how it ended (with the run, or before
// it), its last exit code, and that its output was not kept, so it neither
// retries the ID nor takes the shell for one that never existed.
func EarlierShellNote(i ShellInfo) string {
	var how string
	switch i.Reason {
	case ShellExited:
		how = fmt.Sprintf("; it had exited by itself (exit code %d) before that run ended", i.ExitCode)
	case ShellKilled:
		how = "; it had been killed before that run ended"
	case ShellTainted:
		how = "; pincer had ended it before that run ended (its workspace was tainted while it read unconfined)"
	default: // ShellSessionEnded, ShellProcessEnded
		how = " and was ended when that run ended"
	}
	return fmt.Sprintf("Shell %s belonged to an earlier pincer run of this session%s. It is not running now, and its output was not kept "+
		"beyond what BashOutput returned in that run; start the command again if it is still needed.", i.ID, how)
}

// RememberEarlier records the shells the session's earlier processes ran,
// as its log tells them (each ended: a running one's end is recorded by
// then, ShellProcessEnded at worst), so that BashOutput and KillShell of
// such an ID say what became of it (EarlierShellError) instead of that no
// such shell exists. A shell of this process keeps its ID's meaning.
func (s *Shells) RememberEarlier(shells []ShellInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.earlier == nil {
		s.earlier = map[string]ShellInfo{}
	}
	for _, i := range shells {
		i.Running = false
		s.earlier[i.ID] = i
	}
}

// earlierErr is the EarlierShellError of id, or nil when no earlier
// process gave it out. The caller holds s.mu.
func (s *Shells) earlierErr(id string) error {
	if i, ok := s.earlier[id]; ok {
		return &EarlierShellError{Info: i}
	}
	return nil
}

// AsEarlierShell returns the shell err names when it is an
// EarlierShellError.
func AsEarlierShell(err error) (ShellInfo, bool) {
	var e *EarlierShellError
	if errors.As(err, &e) {
		return e.Info, true
	}
	return ShellInfo{}, false
}
