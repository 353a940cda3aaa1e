package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"pincer/core/app"
	"pincer/ui/termtext"
)

// cmdAudit is `pincer audit [--session ID] [--limit N] [--json]`: the permission
// decisions pincer made (tool, input summary, decision, matching rule or mode, who
// decided), newest first.
func cmdAudit(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	session := fs.String("session", "", "only this session's decisions")
	limit := fs.Int("limit", 200, "at most this many entries (0: all)")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stdout, "Usage: pincer audit [--session ID] [--limit N] [--json]")
		return 0, err
	}
	if err != nil {
		return 0, err
	}
	if len(pos) > 0 {
		return 0, usagef("usage: pincer audit [--session ID] [--limit N] [--json]")
	}
	store, err := app.OpenStoreForReading()
	if err != nil {
		return 0, err
	}
	defer store.Close()
	if *session != "" {
		id, err := app.ResolveSessionID(context.Background(), store, *session)
		if err != nil {
			return 1, err
		}
		*session = id
	}
	entries, err := store.ListAudit(context.Background(), *session, *limit)
	if err != nil && !errors.Is(err, app.ErrCorrupt) {
		return 0, err
	}
	if *asJSON {
		if entries == nil {
			entries = []app.AuditEntry{}
		}
		return 0, errors.Join(json.NewEncoder(termtext.JSON(stdout)).Encode(entries), err)
	}
	if len(entries) == 0 {
		fmt.Fprintln(stdout, "No permission decisions recorded.")
		return 0, err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tSESSION\tTOOL\tDECISION\tSCOPE\tBY\tSUMMARY\tREASON")
	for _, e := range entries {
		fmt.Fprintln(tw, auditRow(e))
	}
	return 0, errors.Join(tw.Flush(), err)
}

// auditRow is one entry as a tab-separated table row: time, session, tool
// (with its origin in parentheses when it is not built in: "(mcp:SERVER)"),
// decision, scope ("-" when nobody was asked), who decided (the rule when no
// one is named), summary, and the reason of a denial (others' reasons say
// only what the decision says).
func auditRow(e app.AuditEntry) string {
	by := e.By
	if e.Rule != "" && by == "" {
		by = e.Rule
	}
	scope := e.Scope
	if scope == "" {
		scope = "-"
	}
	reason := ""
	if e.Decision == "deny" {
		reason = strings.Join(strings.Fields(e.Reason), " ")
	}
	tool := e.Tool
	if e.Origin != "" {
		tool += " (" + e.Origin + ")"
	}
	cells := []string{e.Time.Local().Format(time.DateTime), e.SessionID, tool, e.Decision, scope, by, e.Summary, reason}
	for i, c := range cells {
		cells[i] = termtext.Line(c) // a summary quotes the model's input: one cell, nothing the terminal acts on
	}
	return strings.Join(cells, "\t")
}
