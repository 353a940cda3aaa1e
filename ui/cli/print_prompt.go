package cli

import (
	"fmt"
	"io"

	"pincer/core/app"
)

// printSystemPrompt is --print-system-prompt: the system prompt a new
// session here gets, built by the one builder a session uses
// (Setup.SystemPrompt: tools, instructions, # Skills, # Memory), without a
// model key needed. A configuration that does not load falls back to the
// prompt without the configured parts (app.NewSessionPrompt), saying why on
// stderr. The MCP servers' block is not in it: it joins each model call once
// the servers have connected (a note on stderr says so).
func printSystemPrompt(opts app.Options, stdout, stderr io.Writer) (int, error) {
	opts.ModelOptional = true
	setup, err := app.Prepare(opts)
	if err != nil {
		fmt.Fprintf(stderr, "pincer: the configuration did not load (%v): the prompt below lacks its skills and memory\n", err)
		text, err := app.NewSessionPrompt(opts.Model)
		if err != nil {
			return 0, err
		}
		fmt.Fprintln(stdout, text)
		return 0, nil
	}
	fmt.Fprintln(stdout, setup.SystemPrompt())
	fmt.Fprintln(stderr, "pincer: note: the # MCP servers block joins each model call once the servers have connected; it is not printed here")
	return 0, nil
}
