package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"pincer/core/app"
	"pincer/persist"
	"pincer/persist/memory"
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
	store, err := app.OpenExistingStore()
	if errors.Is(err, app.ErrNoStore) {
		store = memory.New()
	} else if err != nil {
		return 0, err
	}
	defer store.Close()
	if *session != "" {
		id := app.ExpandSessionID(context.Background(), store, *session)
		if _, err := store.GetSession(context.Background(), id); errors.Is(err, persist.ErrNotFound) {
			return 1, fmt.Errorf("no session %q (see \"pincer sessions\")", *session)
		}
		*session = id
	}
	entries, err := store.ListAudit(context.Background(), *session, *limit)
	if err != nil && !errors.Is(err, persist.ErrCorrupt) {
		return 0, err
	}
	if *asJSON {
		if entries == nil {
			entries = []persist.AuditEntry{}
		}
		return 0, errors.Join(json.NewEncoder(stdout).Encode(entries), err)
	}
	if len(entries) == 0 {
		fmt.Fprintln(stdout, "No permission decisions recorded.")
		return 0, err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tSESSION\tTOOL\tDECISION\tBY\tSUMMARY")
	for _, e := range entries {
		by := e.By
		if e.Rule != "" && by == "" {
			by = e.Rule
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.Time.Local().Format(time.DateTime), e.SessionID, e.Tool, e.Decision, by, e.Summary)
	}
	return 0, errors.Join(tw.Flush(), err)
}
