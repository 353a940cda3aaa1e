package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"pincer/core/agent"
	"pincer/core/app"
	"pincer/core/event"
	"pincer/core/message"
	"pincer/ui/termtext"
)

// cmdSessions is `pincer sessions [list|show ID] [--json]`.
func cmdSessions(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("sessions", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "Usage: pincer sessions [list] [--json] | pincer sessions show ID [--json] | pincer sessions watch ID [--after N] | pincer sessions diff ID [--turn N]")
		}
		return 0, err
	}
	sub := "list"
	if len(pos) > 0 {
		sub = pos[0]
	}
	switch {
	case sub == "list" && len(pos) <= 1:
	case sub == "show" && len(pos) == 2:
	case sub == "show":
		return 0, usagef("usage: pincer sessions show ID [--json]")
	default:
		return 0, usagef("usage: pincer sessions [list] [--json] | pincer sessions show ID [--json]")
	}
	store, err := app.OpenStoreForReading()
	if err != nil {
		return 0, err
	}
	defer store.Close()
	ctx := context.Background()
	if sub == "list" {
		return 0, listSessions(ctx, store, stdout, *asJSON)
	}
	return 0, showSession(ctx, store, pos[1], stdout, *asJSON)
}

// listSessions prints the stored sessions, newest first, as a table or JSON;
// in the table a subagent's child session is indented under its parent, its
// title led by its type (nestSessions), a conversation-rewind branch's by
// its mark (app.BranchLabel), and the JSON gives each its parentId (and a
// branch its branchOf and branchTurn).
// A session in which no prompt was ever sent (no title: an open workbench's
// fresh session, or one a crash left) is not listed, as in the workbench's
// sessions browser.
func listSessions(ctx context.Context, store app.Store, w io.Writer, asJSON bool) error {
	list, err := store.ListSessions(ctx, 0)
	if err != nil {
		return err
	}
	list = slices.DeleteFunc(list, func(s app.SessionRecord) bool { return s.Title == "" })
	if asJSON {
		if list == nil {
			list = []app.SessionRecord{}
		}
		return json.NewEncoder(termtext.JSON(w)).Encode(list)
	}
	if len(list) == 0 {
		fmt.Fprintln(w, "No sessions yet. Start one with: pincer run PROMPT")
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tUPDATED\tSTATUS\tMODEL\tDIRECTORY\tTITLE")
	for _, r := range nestSessions(list) {
		s, id, title := r.SessionRecord, termtext.Line(r.ID), termtext.Line(r.Title)
		if r.Depth > 0 {
			id = strings.Repeat("  ", r.Depth-1) + "└ " + id
		}
		if s.AgentType != "" {
			title = "[" + termtext.Line(s.AgentType) + "] " + title
		}
		if mark := app.BranchLabel(termtext.Line(s.BranchOf), s.BranchTurn); mark != "" {
			title = mark + " · " + title
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", id, s.UpdatedAt.Local().Format(time.DateTime),
			termtext.Line(s.Status), termtext.Line(s.Model), termtext.Line(s.Cwd), title)
	}
	return tw.Flush()
}

// sessionDump is the JSON of `pincer sessions show ID --json`.
type sessionDump struct {
	Session  app.SessionRecord `json:"session"`
	Messages []message.Message `json:"messages"`
	Events   []event.Event     `json:"events"`
}

func showSession(ctx context.Context, store app.Store, id string, w io.Writer, asJSON bool) error {
	id, err := app.ResolveSessionID(ctx, store, id)
	if err != nil {
		return err
	}
	s, err := store.GetSession(ctx, id)
	if err != nil {
		return err
	}
	msgs, merr := store.ListMessages(ctx, id)
	evs, eerr := store.ListEvents(ctx, id, 0, 0)
	if asJSON {
		if err := json.NewEncoder(termtext.JSON(w)).Encode(sessionDump{s, msgs, evs}); err != nil {
			return err
		}
		return errors.Join(merr, eerr)
	}
	fmt.Fprintf(w, "Session %s — %s — %s — %s\n", s.ID, s.Status, s.Model, s.Cwd)
	fmt.Fprintf(w, "Created %s, updated %s\n", s.CreatedAt.Local().Format(time.DateTime), s.UpdatedAt.Local().Format(time.DateTime))
	if s.ParentID != "" {
		fmt.Fprintf(w, "Subagent %s of session %s (tool call %s)\n", termtext.Line(s.AgentType), s.ParentID, termtext.Line(s.ParentToolCallID))
	}
	writeChildren(ctx, store, w, s.ID)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Transcript:")
	turnNo, cur := map[string]int{}, ""
	for _, m := range msgs {
		if m.TurnID != "" && m.TurnID != cur {
			cur = m.TurnID
			if _, seen := turnNo[cur]; !seen {
				turnNo[cur] = len(turnNo) + 1
			}
			// Turns numbered from 1 as pincer rewind --turn and sessions diff --turn count them.
			fmt.Fprintf(w, "  Turn %d (%s)\n", turnNo[cur], termtext.Line(cur))
		}
		writeMessage(w, m)
	}
	if todos, ok := agent.RenderTodosOf(msgs); ok {
		fmt.Fprintf(w, "\nTodos:\n%s\n", indent(todos, "  "))
	}
	fmt.Fprintf(w, "\nEvents (%d):\n", len(evs))
	for _, ev := range evs {
		turn := ev.TurnID
		if n, ok := turnNo[turn]; ok {
			turn = fmt.Sprintf("turn %d (%s)", n, turn)
		}
		fmt.Fprintf(w, "  %5d  %s  %-22s %s%s\n", ev.Sequence, ev.Timestamp.Local().Format("15:04:05.000"), ev.Type, turn, eventDetail(ev))
	}
	return errors.Join(merr, eerr)
}

// writeMessage prints one transcript message as indented text.
func writeMessage(w io.Writer, m message.Message) {
	mark := ""
	if m.Interrupted {
		mark = " (interrupted)"
	}
	fmt.Fprintf(w, "  [%d] %s%s\n", m.Seq, m.Role, mark)
	for _, p := range m.Parts {
		switch p.Type {
		case message.PartText:
			if m.Role == message.RoleSystem {
				fmt.Fprintf(w, "      (system prompt, %d chars)\n", len(p.Text))
				continue
			}
			fmt.Fprintln(w, indent(p.Text, "      "))
		case message.PartReasoning:
			fmt.Fprintln(w, indent("(reasoning) "+p.Text, "      "))
		case message.PartToolCall:
			fmt.Fprintf(w, "      → %s %s  [%s]\n", p.ToolName, p.Input, p.ToolCallID)
		case message.PartToolResult:
			status := "ok"
			if p.IsError {
				status = "error"
			}
			fmt.Fprintf(w, "      ← %s %s [%s]\n%s\n", p.ToolName, status, p.ToolCallID, indent(p.Text, "        "))
		}
	}
}

func indent(s, pre string) string {
	return pre + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+pre)
}

// eventDetail is what the events list adds to an event's line: why a turn
// failed or was cancelled (its reason and error), "" for the others.
func eventDetail(ev event.Event) string {
	p, err := ev.Payload()
	if err != nil {
		return ""
	}
	switch d := p.(type) {
	case event.TurnFailedData:
		return "  failed (" + d.Reason + "): " + strings.Join(strings.Fields(d.Error), " ")
	case event.TurnCancelledData:
		if d.Reason != "" {
			return "  cancelled: " + d.Reason
		}
	}
	return ""
}

// writeChildren names the subagents' child sessions of session id, newest
// first: ID, type, status, title (nothing when it has none).
func writeChildren(ctx context.Context, store app.Store, w io.Writer, id string) {
	kids, err := app.ChildSessions(ctx, store, id)
	if err != nil || len(kids) == 0 {
		return
	}
	fmt.Fprintf(w, "Subagents (%d):\n", len(kids))
	for _, c := range kids {
		fmt.Fprintf(w, "  %s  [%s]  %s  %s\n", c.ID, termtext.Line(c.AgentType), termtext.Line(c.Status), termtext.Line(c.Title))
	}
}
