// Command longsession writes a long, finished session into pincer's store, so
// that `pincer --continue` can be timed on it (issue 19's resume benchmarks):
//
//	go run ./core/app/internal/longsession -messages 2000 -cwd /path/to/project
//
// The store is the one pincer would open in this environment (PINCER_HOME,
// XDG_DATA_HOME, ...: core/app.StoreDir), opened directly, so no store daemon
// may have it open (stop it, or wait out its idle exit, first). It prints the
// session's id, its counts and the text the last answer ends with, one
// "key value" per line. Run `pincer --continue` from -cwd to resume it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"pincer/core/app"
	"pincer/persist/longsession"
)

func main() {
	messages := flag.Int("messages", 2000, "transcript messages to write (at least 2)")
	cwd := flag.String("cwd", ".", "the session's directory: run pincer --continue there")
	model := flag.String("model", "fake/m", "the session's model")
	flag.Parse()
	if err := run(*messages, *cwd, *model); err != nil {
		fmt.Fprintln(os.Stderr, "longsession:", err)
		os.Exit(1)
	}
}

func run(messages int, cwd, model string) error {
	dir, err := filepath.Abs(cwd)
	if err != nil {
		return err
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	store, err := app.OpenStoreDirect()
	if err != nil {
		return err
	}
	res, err := longsession.Write(context.Background(), store, longsession.Options{Cwd: dir, Model: model, Messages: messages})
	if cerr := store.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	storeDir, _ := app.StoreDir()
	last := strings.Split(strings.TrimSpace(res.LastText), "\n")
	fmt.Printf("session %s\nstore %s\ncwd %s\nmessages %d\nevents %d\nturns %d\nlast-line %s\n",
		res.Session.ID, storeDir, dir, res.Messages, res.Events, res.Turns, last[len(last)-1])
	return nil
}
