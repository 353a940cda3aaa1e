package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"pincer/core/app"
	"pincer/core/config"
	"pincer/ui/termtext"
)

// doctorConfig prints the Config section: each configuration file of this
// directory (config.Read: the user's and the project's config.toml, the
// settings files, .mcp.json, ...) that exists, OK or its FILE:LINE:COL error,
// and how many are absent (each listed with verbose); then every problem a run
// here would find in them (app.ConfigProblems: unknown keys, bad values,
// rules that do not parse — the run's own reader). A file a problem names is
// not OK. It reports whether anything stops `pincer run` (a warning-only
// problem, such as a broken .mcp.json, does not).
func doctorConfig(w io.Writer, verbose bool) (failed bool) {
	fmt.Fprintln(w, "\nConfig:")
	cwd, _ := os.Getwd()
	src := config.Read(config.PathsFrom(os.Getenv), cwd)
	fatal, warns, err := app.ConfigProblems("")
	if err != nil {
		fatal = append(fatal, err.Error())
	}
	shown := map[string]bool{}
	names := func(d *config.Document, list []string) bool {
		for _, p := range list {
			if strings.Contains(p, d.Path) {
				return true
			}
		}
		return false
	}
	absent := 0
	for _, d := range src.Docs {
		switch {
		case d.Err != nil && d.Err.Warning:
			fmt.Fprintf(w, "  %s: WARNING %s\n", d.Name, d.Err.Error())
			shown[d.Err.Error()] = true
		case d.Err != nil:
			fmt.Fprintf(w, "  %s: ERROR %s (pincer run stops; the workbench denies every tool)\n", d.Name, d.Err.Error())
			shown[d.Err.Error()] = true
			failed = true
		case !d.Exists:
			absent++
			if verbose {
				fmt.Fprintf(w, "  %s: absent (%s)\n", d.Name, d.Path)
			}
		case d.Same:
		case names(d, fatal):
			fmt.Fprintf(w, "  %s: ERROR (%s): see below\n", d.Name, d.Path)
		case names(d, warns):
			fmt.Fprintf(w, "  %s: WARNING (%s): see below\n", d.Name, d.Path)
		default:
			fmt.Fprintf(w, "  %s: OK (%s)\n", d.Name, d.Path)
		}
	}
	if absent > 0 && !verbose {
		fmt.Fprintf(w, "  %d more absent (--verbose lists them)\n", absent)
	}
	for _, p := range fatal {
		failed = true
		if !shown[p] {
			fmt.Fprintf(w, "  ERROR %s (pincer run stops; the workbench denies every tool)\n", p)
		}
	}
	for _, p := range warns {
		if !shown[p] {
			fmt.Fprintf(w, "  WARNING %s\n", p)
		}
	}
	return failed
}

// doctorModel prints the Model section: the model a run here would use
// (app.ResolveModel without flags), its provider and endpoint, and whether it
// needs an API key and has one; or why no model resolves.
func doctorModel(w io.Writer) {
	fmt.Fprintln(w, "\nModel:")
	mc, err := app.ResolveModel("", "", os.Getenv)
	if mc.ID() != "" {
		fmt.Fprintf(w, "  model: %s (provider %s, %s)\n", mc.ID(), mc.Provider, mc.BaseURL)
	}
	for _, warn := range mc.Warnings { // a file that did not load may be where the model is named
		fmt.Fprintf(w, "  config: %s\n", termtext.Line(warn))
	}
	if err != nil {
		if len(mc.Warnings) > 0 {
			fmt.Fprintf(w, "  not usable: %v (the configuration above did not load: fix it first)\n", err)
			return
		}
		fmt.Fprintf(w, "  not usable: %v\n", err)
		return
	}
	cfg, _ := app.LoadModelConfig(os.Getenv)
	pc, known := cfg.Lookup(mc.Provider)
	switch {
	case mc.APIKey != "":
		fmt.Fprintln(w, "  API key: configured")
	case known && pc.RequiresAPIKey:
		fmt.Fprintln(w, "  API key: NEEDED and missing")
	default:
		fmt.Fprintln(w, "  API key: not needed (a keyless provider)")
	}
	if window, _, ok := app.ModelInfo(mc); ok && window > 0 {
		fmt.Fprintf(w, "  context window: %d tokens\n", window)
	} else {
		fmt.Fprintln(w, "  context window: unknown (no automatic compaction; set [models.\"NAME\"] context_window)")
	}
}

// doctorCommand parses `pincer doctor [--verbose]` and runs cmdDoctor.
func doctorCommand(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	verbose := fs.Bool("verbose", false, "list every absent configuration file and hidden path")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "Usage: pincer doctor [--verbose]   (exit 1 when a configuration file does not parse)")
			return 0, nil
		}
		return 0, flagError(err.Error())
	}
	if fs.NArg() > 0 {
		return 0, usagef("doctor takes no arguments, got %q", fs.Arg(0))
	}
	return cmdDoctor(stdout, *verbose), nil
}
