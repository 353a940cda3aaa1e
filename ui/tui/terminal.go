package tui

import (
	"errors"
	"fmt"
	"os"

	"github.com/gdamore/tcell/v2"
	"golang.org/x/term"
)

// ErrNoTerminal is returned (wrapped) when the process has no terminal to
// draw on: no controlling terminal (`setsid pincer`, cron, a CI step) or one
// that cannot be initialised. The workbench then does not start; scripts use
// `pincer run`.
var ErrNoTerminal = errors.New("no terminal")

// ttyPath is the controlling terminal, which tcell draws on whatever stdin,
// stdout and stderr are (as on every Unix).
const ttyPath = "/dev/tty"

// CheckTerminal reports whether the workbench could draw on the terminal:
// nil when /dev/tty opens and is a terminal, else an error wrapping
// ErrNoTerminal. It opens and closes the device only; call it before doing
// any work the workbench would need.
func CheckTerminal() error {
	f, err := os.OpenFile(ttyPath, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNoTerminal, err)
	}
	defer f.Close()
	if !term.IsTerminal(int(f.Fd())) {
		return fmt.Errorf("%w: %s is not a terminal", ErrNoTerminal, ttyPath)
	}
	return nil
}

// openTerminal creates the terminal screen (tcell's terminfo screen on
// ttyPath, through a watchTty for the frame writer) and initialises it, so a missing
// or unusable terminal is an error here (wrapping ErrNoTerminal) rather than
// a nil-pointer panic inside tcell later (tview's SetScreen ignores Init's
// error and the first write goes to a nil writer).
func openTerminal() (tcell.Screen, error) {
	tty, err := tcell.NewDevTtyFromDev(ttyPath)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoTerminal, err)
	}
	s, err := newTerminfoScreen(tty)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoTerminal, err)
	}
	if err := s.Init(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoTerminal, err)
	}
	return s, nil
}
