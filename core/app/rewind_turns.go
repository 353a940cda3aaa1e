package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"pincer/core/checkpoint"
	"pincer/core/message"
	"pincer/persist"
)

// TurnSummary is one turn of a session as `pincer rewind` lists it: its
// number (from 1, as --turn counts), when it started, the first line of its
// prompt and the files its tool calls changed (Bash included), sorted.
type TurnSummary struct {
	Number int
	ID     string
	Time   time.Time
	Prompt string
	Files  []string
}

// SessionTurns are the turns of session id (a unique prefix too), in order.
func SessionTurns(ctx context.Context, store persist.Store, id string) ([]TurnSummary, error) {
	id, err := ResolveSessionID(ctx, store, id)
	if err != nil {
		return nil, err
	}
	msgs, err := store.ListMessages(ctx, id)
	if err != nil {
		return nil, err
	}
	cps, err := store.ListCheckpoints(ctx, id)
	if err != nil {
		return nil, err
	}
	var out []TurnSummary
	for i, t := range checkpoint.Turns(msgs) {
		ts := TurnSummary{Number: i + 1, ID: t}
		for _, m := range msgs {
			if m.TurnID != t {
				continue
			}
			if ts.Time.IsZero() {
				ts.Time = m.CreatedAt
			}
			if m.Role == message.RoleUser && ts.Prompt == "" {
				ts.Prompt = firstLine(m)
			}
		}
		for _, ch := range checkpoint.Combine(checkpoint.OfTurns(cps, t)) {
			ts.Files = append(ts.Files, ch.Path)
		}
		out = append(out, ts)
	}
	return out, nil
}

// firstLine is the first non-empty line of m's text.
func firstLine(m message.Message) string {
	for _, p := range m.Parts {
		if p.Type != message.PartText {
			continue
		}
		for _, l := range strings.Split(p.Text, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				return l
			}
		}
	}
	return ""
}

// BranchLabel is how a session list marks a conversation-rewind branch of
// session of at turn (persist.Session.BranchOf, BranchTurn): "⎇ branch of
// ID at turn N"; "" when of is "" (not a branch).
func BranchLabel(of string, turn int) string {
	if of == "" {
		return ""
	}
	return fmt.Sprintf("⎇ branch of %s at turn %d", of, turn)
}
