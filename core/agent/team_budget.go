package agent

import (
	"errors"
	"fmt"
	"sync"
	"unicode/utf8"
)

// A team's budget. Members answering each other's messages could run without
// end (each message to an idle member starts a turn), so a team has, besides
// each member's MaxMemberTurns, one budget of model calls shared by all its
// members (MaxTeamModelCalls): every member model call takes one before it
// is made; once none is left the member's turn ends (failed, reason
// max_iterations), no message starts another, and the lead is reminded once
// that the team is spent (headless `pincer run` then ends: nothing is left
// running). A message is cut to MaxTeamMessageChars with a note, as a long
// tool result is.

// MaxTeamModelCalls is the model calls all members of one team may make
// together (the lead's own are its turns' budget).
const MaxTeamModelCalls = 200

// MaxTeamMessageChars is the most characters of a SendMessage the recipient
// receives; the rest is cut with a note saying how much.
const MaxTeamMessageChars = 20000

// MaxTeamsPerSession caps the live teams of one lead session.
const MaxTeamsPerSession = 3

// MaxRunMembers caps the team members one lead agent (a Run's) starts in all.
const MaxRunMembers = 24

// errTeamBudget ends a member's turn when its team's model calls are spent;
// it is an errMaxIterations (the turn's reason is max_iterations).
var errTeamBudget = fmt.Errorf("%w: the team's budget of model calls is spent", errMaxIterations)

// callBudget is a count of model calls shared by several sessions (a team's
// members). Safe for concurrent use.
type callBudget struct {
	mu        sync.Mutex
	used, max int
	spent     func() // called once, when the last call is taken
}

// take takes one model call, or reports errTeamBudget when none is left.
func (b *callBudget) take() error {
	b.mu.Lock()
	if b.used >= b.max {
		b.mu.Unlock()
		return fmt.Errorf("%w (%d model calls)", errTeamBudget, b.max)
	}
	b.used++
	last := b.used == b.max
	b.mu.Unlock()
	if last && b.spent != nil {
		b.spent()
	}
	return nil
}

// left reports whether a call remains.
func (b *callBudget) left() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used < b.max
}

// setBudget makes every model call of session id take one of b first (nil:
// none).
func (a *Agent) setBudget(id string, b *callBudget) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.budgets == nil {
		a.budgets = map[string]*callBudget{}
	}
	if b == nil {
		delete(a.budgets, id)
		return
	}
	a.budgets[id] = b
}

// takeBudget takes a model call of session id's shared budget, if it has one.
func (a *Agent) takeBudget(id string) error {
	a.mu.Lock()
	b := a.budgets[id]
	a.mu.Unlock()
	if b == nil {
		return nil
	}
	return b.take()
}

// isTeamBudget reports whether err is a spent team budget's.
func isTeamBudget(err error) bool { return errors.Is(err, errTeamBudget) }

// cutMessage cuts a team message to MaxTeamMessageChars characters, with a
// note of how many were cut.
func cutMessage(text string) string {
	n := utf8.RuneCountInString(text)
	if n <= MaxTeamMessageChars {
		return text
	}
	r := []rune(text)
	return string(r[:MaxTeamMessageChars]) + fmt.Sprintf("\n\n... [message cut: %d more characters were not delivered; at most %d are] ...", n-MaxTeamMessageChars, MaxTeamMessageChars)
}
