package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"pincer/core/app"
	"pincer/core/event"
	"pincer/ui/termtext"
)

// cmdSessionsWatch is `pincer sessions watch ID [--after N]`: it prints the
// session's events as JSON lines (the stream-json form of `pincer run`) as they
// happen, whichever pincer process drives the session, until a turn ends. By
// default it starts at the running turn's turn.started (so a watcher that comes
// late sees the whole turn), or, when no turn runs, waits for the next one;
// --after N starts after sequence N instead. At the start it says on stderr
// what it watches ("watching session ID (idle): events appear as they happen;
// Ctrl+C stops"), so a watch of an idle session is not mistaken for a hang;
// stdout holds nothing but the JSON lines.
func cmdSessionsWatch(args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("sessions watch", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	after := fs.Int64("after", -1, "print the events after this sequence (default: from the running turn's start)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "Usage: pincer sessions watch ID [--after N]   (JSON lines until the turn ends)")
		}
		return 0, err
	}
	if len(pos) != 1 || strings.TrimSpace(pos[0]) == "" {
		return 0, usagef("usage: pincer sessions watch ID [--after N]")
	}
	id := pos[0]
	store, err := app.OpenExistingStore()
	if errors.Is(err, app.ErrNoStore) {
		return 0, fmt.Errorf("no session %q (see \"pincer sessions\")", id)
	}
	if err != nil {
		return 0, err
	}
	defer store.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if id, err = app.ResolveSessionID(ctx, store, id); err != nil {
		return 1, err
	}
	cursor := uint64(max(*after, 0))
	state := fmt.Sprintf("after sequence %d", cursor)
	if *after < 0 {
		var running bool
		if cursor, running, err = app.WatchCursor(ctx, store, id); err != nil {
			return 0, err
		}
		state = "idle"
		if running {
			state = "a turn is running"
		}
	}
	fmt.Fprintf(stderr, "watching session %s (%s): events appear as they happen; Ctrl+C stops\n", id, state)
	enc := json.NewEncoder(termtext.JSON(stdout))
	err = event.NewLog(store).Follow(ctx, id, cursor, func(ev event.Event) error {
		if err := enc.Encode(ev); err != nil {
			return err
		}
		switch ev.Type {
		case event.TurnCompleted, event.TurnFailed, event.TurnCancelled:
			return event.ErrStop
		}
		return nil
	})
	if ctx.Err() != nil {
		return 1, fmt.Errorf("stopped watching session %s", id)
	}
	if err != nil {
		return 0, fmt.Errorf("watching session %s: %w", id, err)
	}
	return 0, nil
}
