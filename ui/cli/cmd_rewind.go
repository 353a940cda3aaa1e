package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"pincer/core/app"
	"pincer/ui/termtext"

	"golang.org/x/term"
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
			fmt.Fprintln(stdout, "Usage: pincer sessions diff ID [--turn N]   (the workspace changes of session ID, Bash included, as a git diff)")
			fs.SetOutput(stdout)
			fs.PrintDefaults()
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
	_, err = io.WriteString(pipeable(stdout), d)
	return 0, err
}

// pipeable is where a diff goes: stdout's own stream, not cleaned, when it
// is not a terminal (a pipe to git apply needs every byte of the content; the
// names in the headers are git-quoted, checkpoint.Diff), else stdout as Main
// wraps it (termtext: nothing the terminal acts on).
func pipeable(stdout io.Writer) io.Writer {
	tw, ok := stdout.(*termtext.Writer)
	if !ok {
		return stdout
	}
	if f, ok := tw.W.(*os.File); ok && !term.IsTerminal(int(f.Fd())) {
		return f
	}
	return stdout
}

// cmdRewind is `pincer rewind (--session ID | -c) --turn N
// [--code|--conversation] [--force]`: rewinds the session to before turn N,
// code and conversation unless one is named (as Claude Code's /rewind); it
// does not ask (the person typed it) but refuses, listing them, when files
// changed outside pincer since the checkpoint, unless --force. Without
// --turn it lists the session's turns (number, time, prompt, files changed)
// and exits 2.
func cmdRewind(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("rewind", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	id := fs.String("session", "", "the session's ID (or a unique prefix)")
	var cont bool
	fs.BoolVar(&cont, "continue", false, "the newest session in this directory (as pincer run -c)")
	fs.BoolVar(&cont, "c", false, "short for --continue")
	turn := fs.Int("turn", 0, "rewind to before this turn (from 1); without it the turns are listed")
	code := fs.Bool("code", false, "rewind the workspace files only")
	conv := fs.Bool("conversation", false, "rewind the conversation only (a new branch session)")
	force := fs.Bool("force", false, "overwrite files changed outside pincer since the checkpoint")
	usage := "usage: pincer rewind (--session ID | -c) --turn N [--code|--conversation] [--force]"
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "U"+usage[1:])
			fmt.Fprintln(stdout, "Rewinds a session to before a turn: the files its tool calls changed (Bash included) and/or the conversation (a new branch session).")
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return 0, nil
		}
		return 0, usagef("%v", err)
	}
	switch {
	case len(pos) > 0:
		return 0, usagef("rewind takes no arguments, got %q; %s", pos[0], usage)
	case *id == "" && !cont:
		return 0, usagef("%s", usage)
	case *id != "" && cont:
		return 0, usagef("--continue and --session cannot be used together")
	case *turn < 0:
		return 0, usagef("--turn counts from 1")
	case *code && *conv:
		return 0, usagef("--code and --conversation cannot be used together (give neither for both)")
	}
	o := app.RewindOptions{Turn: *turn, Code: !*conv, Conversation: !*code, Force: *force}
	store, err := app.OpenStore()
	if err != nil {
		return 0, err
	}
	defer store.Close()
	ctx := context.Background()
	if cont {
		cwd, err := os.Getwd()
		if err != nil {
			return 1, err
		}
		s, err := app.FindSession(ctx, store, "", true, cwd)
		if err != nil {
			return 1, err
		}
		*id = s.ID
	}
	if *turn == 0 {
		return listTurns(ctx, store, *id, stdout)
	}
	res, err := app.Rewind(ctx, store, *id, o)
	if err != nil {
		return 1, err
	}
	if o.Code {
		fmt.Fprintf(stdout, "Restored %s to before turn %d.\n", plural(len(res.Restored), "file"), *turn)
		for _, p := range res.Restored {
			fmt.Fprintf(stdout, "  %s\n", p)
		}
	}
	if o.Conversation && *turn == 1 {
		fmt.Fprintln(stdout, "The conversation is kept, as nothing is before turn 1 (pincer run starts a new session).")
	}
	if res.Branch != "" {
		fmt.Fprintf(stdout, "Conversation rewound to before turn %d: new branch session %s (continue it with pincer run --session %s).\n",
			*turn, res.Branch, res.Branch)
	}
	return 0, nil
}

// listTurns prints the turns of session id, one a line (number, start time,
// first line of the prompt, files changed), and a hint; it exits 2: no turn
// was given, nothing was rewound.
func listTurns(ctx context.Context, store app.Store, id string, stdout io.Writer) (int, error) {
	turns, err := app.SessionTurns(ctx, store, id)
	if err != nil {
		return 1, err
	}
	full, _ := app.ResolveSessionID(ctx, store, id)
	fmt.Fprintf(stdout, "Turns of session %s:\n", full)
	for _, t := range turns {
		files := "no files changed"
		if len(t.Files) > 0 {
			files = termtext.Line(strings.Join(t.Files, ", "))
		}
		fmt.Fprintf(stdout, "  %3d  %s  %-50s  %s\n", t.Number, t.Time.Local().Format(time.DateTime), clip(termtext.Line(t.Prompt), 50), files)
	}
	fmt.Fprintf(stdout, "Rewind to before one with: pincer rewind --session %s --turn N [--code|--conversation]\n", full)
	return 2, nil
}

// clip is s cut to n runes, "…" marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
