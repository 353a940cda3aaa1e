// Package browser is the workbench's sessions browser (Ctrl+O, /sessions): the
// list of stored sessions with what their logs say (turns, tokens, cost), a
// filter, a selection that follows a session by ID, and its drawing over the
// panes.
//
// The contract: State is plain data, changed by its methods and read by Draw
// on the caller's event loop under the caller's lock; loading happens
// elsewhere (the workbench's background loader fills All and folds each log
// with AddStats, a pure function). Keys are the workbench's: it maps them to
// these methods, and acts on the selected session itself (open, resume,
// delete).
package browser

import (
	"errors"
	"strings"
	"time"

	"pincer/core/app"
	"pincer/core/event"
)

// Summary is one row of the sessions browser: the session's record
// plus what its event log says (turns, tokens, cost).
type Summary struct {
	ID      string
	Title   string // the first prompt, on one line
	Cwd     string
	Model   string
	Updated time.Time
	// Status is idle, running (a process holds it now), failed, cancelled or
	// interrupted (its process ended mid-turn): app.SessionStatus.
	Status string
	// Stats is set once the figures below were read from the log.
	Stats bool
	Turns int // turn.started events
	// InputTokens and OutputTokens sum the usage events.
	InputTokens, OutputTokens int64
	// CostUSD sums the known costs; CostUnknown is set when a model call
	// reported none.
	CostUSD     float64
	CostUnknown bool
	// Unreadable counts the events whose payload did not decode: the figures
	// above are then lower bounds (drawn with a "+").
	Unreadable int
	Err        string // why the log could not be read
	// ParentID is the session a subagent's child session belongs to, and
	// AgentType its type ("" for a top-level session). Depth (0: top level)
	// and Kids (its child sessions) are set by Rows (tree.go).
	ParentID, AgentType string
	Depth, Kids         int
}

// SummaryOf starts a summary from a session record. A conversation-rewind
// branch's title is led by its mark (app.BranchLabel).
func SummaryOf(s app.Session) Summary {
	title := oneLineTitle(s.Title)
	if mark := app.BranchLabel(s.BranchOf, s.BranchTurn); mark != "" {
		title = mark + " · " + title
	}
	return Summary{ID: s.ID, Title: title, Cwd: s.Cwd, Model: s.Model, Updated: s.UpdatedAt, Status: s.Status,
		ParentID: s.ParentID, AgentType: s.AgentType}
}

// AddStats folds a session's events into its summary: it counts turn.started,
// sums usage, and takes the title from the first prompt when the record has
// none. It is a pure function of the summary and the events.
func AddStats(sum Summary, evs []event.Event) Summary {
	sum.Stats = true
	for _, ev := range evs {
		if ev.Type == event.TurnStarted {
			sum.Turns++ // a turn counts even when its payload does not read
		}
		p, err := ev.Payload()
		if err != nil {
			if !errors.Is(err, event.ErrUnknownType) { // a newer pincer's type is not a fault
				sum.Unreadable++
			}
			continue
		}
		switch d := p.(type) {
		case event.SessionCreatedData:
			if sum.Cwd == "" {
				sum.Cwd = d.Cwd
			}
			if sum.Model == "" {
				sum.Model = d.Model
			}
		case event.TurnStartedData:
			if sum.Title == "" {
				sum.Title = oneLineTitle(d.Input)
			}
		case event.UsageData:
			sum.InputTokens += d.InputTokens
			sum.OutputTokens += d.OutputTokens
			if d.CostUSD == nil {
				sum.CostUnknown = true
			} else {
				sum.CostUSD += *d.CostUSD
			}
		}
	}
	return sum
}

// oneLineTitle flattens a prompt into a title: its lines joined by spaces.
func oneLineTitle(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Matches reports whether the summary contains every word of filter
// (case-insensitive) in its title, directory, model, ID or date.
func (s Summary) Matches(filter string) bool {
	hay := strings.ToLower(strings.Join([]string{s.Title, s.Cwd, s.Model, s.ID, s.AgentType,
		s.Updated.Local().Format("2006-01-02 15:04")}, " "))
	for _, word := range strings.Fields(strings.ToLower(filter)) {
		if !strings.Contains(hay, word) {
			return false
		}
	}
	return true
}
