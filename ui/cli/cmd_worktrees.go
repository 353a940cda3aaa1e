package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"pincer/core/app"
	"pincer/ui/termtext"
)

// worktreesUsage is the usage line of `pincer worktrees`.
const worktreesUsage = "usage: pincer worktrees [list] [--json] | pincer worktrees merge NAME [--force] [--json] | pincer worktrees remove NAME [--force]"

// cmdWorktrees is `pincer worktrees [list|merge NAME|remove NAME] [--json]
// [--force]`: the git worktrees pincer made for this repository (core/app's
// ListWorktrees, MergeWorktree, RemoveWorktree), from the current directory
// (the main checkout or any of its worktrees).
func cmdWorktrees(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("worktrees", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print JSON")
	force := fs.Bool("force", false, "remove: also discard uncommitted work and commits not merged; merge: also changes to protected files")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, worktreesUsage)
		}
		return 0, err
	}
	sub := "list"
	if len(pos) > 0 {
		sub = pos[0]
	}
	switch {
	case sub == "list" && len(pos) <= 1 && !*force:
	case (sub == "merge" || sub == "remove") && len(pos) == 2:
	default:
		return 0, usagef("%s", worktreesUsage)
	}
	dir, err := os.Getwd()
	if err != nil {
		return 0, err
	}
	ctx := context.Background()
	switch sub {
	case "merge":
		res, err := app.MergeWorktree(ctx, dir, pos[1], *force)
		if err != nil {
			return 1, err
		}
		if *asJSON {
			return 0, json.NewEncoder(termtext.JSON(stdout)).Encode(res)
		}
		into := res.Into
		if into == "" {
			into = "the detached HEAD"
		}
		if res.UpToDate {
			fmt.Fprintf(stdout, "worktree %s: %s already has everything of its branch\n", termtext.Line(pos[1]), termtext.Line(into))
			return 0, nil
		}
		fmt.Fprintf(stdout, "merged worktree %s into %s (%s): %s\n", termtext.Line(pos[1]), termtext.Line(into), res.Commit[:min(12, len(res.Commit))], res.Stat)
		return 0, nil
	case "remove":
		if err := app.RemoveWorktree(ctx, dir, pos[1], *force); err != nil {
			return 1, err
		}
		fmt.Fprintf(stdout, "removed worktree %s and its branch\n", termtext.Line(pos[1]))
		return 0, nil
	}
	store, err := app.OpenStoreForReading()
	if err != nil {
		return 0, err
	}
	defer store.Close()
	list, err := app.ListWorktrees(ctx, store, dir)
	if err != nil {
		return 1, err
	}
	if *asJSON {
		return 0, json.NewEncoder(termtext.JSON(stdout)).Encode(list)
	}
	if len(list) == 0 {
		fmt.Fprintln(stdout, "No worktrees for this repository. Start a session in one with: pincer --worktree NAME")
		return 0, nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tBRANCH\tCHANGES\tSESSION\tPATH")
	for _, w := range list {
		changes := w.Changes()
		if p := w.Protected(); len(p) > 0 {
			changes += " [protected: " + strings.Join(p, ", ") + "]"
		}
		session := w.Session
		if session == "" {
			session = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", termtext.Line(w.Name), termtext.Line(w.Branch), termtext.Line(changes), termtext.Line(session), termtext.Line(w.Path))
	}
	return 0, tw.Flush()
}
