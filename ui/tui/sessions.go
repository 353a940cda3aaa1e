package tui

import (
	"strings"
	"time"

	"pincer/core/app"
	"pincer/core/event"
)

// sessionSummary is one row of the sessions browser: the session's record
// plus what its event log says (turns, tokens, cost).
type sessionSummary struct {
	ID      string
	Title   string // the first prompt, on one line
	Cwd     string
	Model   string
	Updated time.Time
	// Stats is set once the figures below were read from the log.
	Stats bool
	Turns int // turn.started events
	// InputTokens and OutputTokens sum the usage events.
	InputTokens, OutputTokens int64
	// CostUSD sums the known costs; CostUnknown is set when a model call
	// reported none.
	CostUSD     float64
	CostUnknown bool
	Err         string // why the log could not be read
}

// summaryOf starts a summary from a session record.
func summaryOf(s app.Session) sessionSummary {
	return sessionSummary{ID: s.ID, Title: oneLineTitle(s.Title), Cwd: s.Cwd, Model: s.Model, Updated: s.UpdatedAt}
}

// addStats folds a session's events into its summary: it counts turn.started,
// sums usage, and takes the title from the first prompt when the record has
// none. It is a pure function of the summary and the events.
func addStats(sum sessionSummary, evs []event.Event) sessionSummary {
	sum.Stats = true
	for _, ev := range evs {
		switch ev.Type {
		case event.SessionCreated:
			var d event.SessionCreatedData
			if ev.Decode(&d) == nil {
				if sum.Cwd == "" {
					sum.Cwd = d.Cwd
				}
				if sum.Model == "" {
					sum.Model = d.Model
				}
			}
		case event.TurnStarted:
			sum.Turns++
			var d event.TurnStartedData
			if sum.Title == "" && ev.Decode(&d) == nil {
				sum.Title = oneLineTitle(d.Input)
			}
		case event.UsageReported:
			var d event.UsageData
			if ev.Decode(&d) != nil {
				continue
			}
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

// matches reports whether the summary contains every word of filter
// (case-insensitive) in its title, directory, model, ID or date.
func (s sessionSummary) matches(filter string) bool {
	hay := strings.ToLower(strings.Join([]string{s.Title, s.Cwd, s.Model, s.ID,
		s.Updated.Local().Format("2006-01-02 15:04")}, " "))
	for _, word := range strings.Fields(strings.ToLower(filter)) {
		if !strings.Contains(hay, word) {
			return false
		}
	}
	return true
}
