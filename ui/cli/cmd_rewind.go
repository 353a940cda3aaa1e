package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"pincer/core/app"
)

// cmdSessionsDiff is `pincer sessions diff ID [--turn N]`: the unified diff of
// what the session (or its turn N, from 1) changed in the workspace, Bash
// included, pipeable to `git apply`.
func cmdSessionsDiff(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("sessions diff", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	turn := fs.Int("turn", 0, "the turn (from 1); all turns when not given")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "Usage: pincer sessions diff ID [--turn N]")
			return 0, nil
		}
		return 0, usagef("%v", err)
	}
	if len(pos) != 1 {
		return 0, usagef("usage: pincer sessions diff ID [--turn N]")
	}
	if *turn < 0 {
		return 0, usagef("--turn counts from 1")
	}
	store, err := app.OpenStoreForReading()
	if err != nil {
		return 0, err
	}
	defer store.Close()
	d, err := app.SessionDiff(context.Background(), store, pos[0], *turn)
	if err != nil {
		return 0, err
	}
	_, err = io.WriteString(stdout, d)
	return 0, err
}

// cmdRewind is `pincer rewind --session ID --turn N [--code|--conversation]
// [--force]`: rewinds the session to before turn N, code and conversation
// unless one is named (as Claude Code's /rewind); it does not ask (the person
// typed it) but refuses, listing them, when files changed outside pincer
// since the checkpoint, unless --force.
func cmdRewind(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("rewind", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	id := fs.String("session", "", "the session's ID (or a unique prefix)")
	turn := fs.Int("turn", 0, "rewind to before this turn (from 1)")
	code := fs.Bool("code", false, "rewind the workspace files only")
	conv := fs.Bool("conversation", false, "rewind the conversation only (a new branch session)")
	force := fs.Bool("force", false, "overwrite files changed outside pincer since the checkpoint")
	usage := "usage: pincer rewind --session ID --turn N [--code|--conversation] [--force]"
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "U"+usage[1:])
			return 0, nil
		}
		return 0, usagef("%v", err)
	}
	switch {
	case len(pos) > 0:
		return 0, usagef("rewind takes no arguments, got %q; %s", pos[0], usage)
	case *id == "" || *turn < 1:
		return 0, usagef("%s", usage)
	case *code && *conv:
		return 0, usagef("--code and --conversation cannot be used together (give neither for both)")
	}
	o := app.RewindOptions{Turn: *turn, Code: !*conv, Conversation: !*code, Force: *force}
	store, err := app.OpenStore()
	if err != nil {
		return 0, err
	}
	defer store.Close()
	res, err := app.Rewind(context.Background(), store, *id, o)
	if err != nil {
		return 1, err
	}
	if o.Code {
		fmt.Fprintf(stdout, "Restored %d files to before turn %d.\n", len(res.Restored), *turn)
		for _, p := range res.Restored {
			fmt.Fprintf(stdout, "  %s\n", p)
		}
	}
	if res.Branch != "" {
		fmt.Fprintf(stdout, "Conversation rewound to before turn %d: new branch session %s (continue it with pincer run --session %s).\n",
			*turn, res.Branch, res.Branch)
	}
	return 0, nil
}
