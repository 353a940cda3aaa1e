package hook

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"
)

// DefaultTimeout bounds a hook that sets no timeout (Claude Code's default: 60 s).
const DefaultTimeout = 60 * time.Second

// Def is one hook definition: run Command when an event whose matcher target
// Matcher selects happens.
type Def struct {
	Matcher string        // see ParseMatcher
	Command string        // run by bash -c (sh -c without bash) in the project directory
	Timeout time.Duration // zero: DefaultTimeout
	Source  string        // the file it came from, for messages; may be empty
	Project bool          // it came from a project file (config.Source.Project): runs only once trusted
	// Origin names where a hook that is not the user's or the project's comes
	// from ("plugin:NAME"); a decision or block it gives carries it in its
	// reason ("[plugin:NAME] ..."), so the transcript and the audit trail say
	// whose hook it was.
	Origin string
}

// newDef validates one definition read from a file; timeout is in seconds, zero
// meaning DefaultTimeout.
func newDef(matcher, command string, timeout float64, source string) (Def, error) {
	if len(bytes.TrimSpace([]byte(command))) == 0 {
		return Def{}, errors.New("command is empty")
	}
	if timeout < 0 || math.IsNaN(timeout) || timeout > 24*3600 {
		return Def{}, fmt.Errorf("timeout %v is not a number of seconds between 0 and 86400", timeout)
	}
	if _, err := ParseMatcher(matcher); err != nil {
		return Def{}, err
	}
	return Def{Matcher: matcher, Command: command, Timeout: time.Duration(timeout * float64(time.Second)), Source: source}, nil
}

// sortedKeys returns m's keys in order, so that messages come out the same way
// every time.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
