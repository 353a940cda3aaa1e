package cli

import (
	"fmt"
	"io"

	"pincer/core/app"
	"pincer/core/prompt"
)

// printSystemPrompt is --print-system-prompt: the system prompt a new
// session here gets, built by the one builder a session uses
// (Setup.SystemPrompt: tools, instructions, # Skills, # Memory), without a
// model key needed. A configuration that does not load falls back to the
// prompt without the configured parts (app.NewSessionPrompt), saying why on
// stderr. The MCP servers' block is not in it: it joins each model call once
// the servers have connected (a note on stderr says so). The line that marks
// where the cacheable part ends (prompt.DynamicMarker) is not printed: the
// parts are joined by a blank line, as a provider without cache breakpoints
// gets them.
func printSystemPrompt(opts app.Options, stdout, stderr io.Writer) (int, error) {
	opts.ModelOptional = true
	setup, err := app.Prepare(opts)
	if err != nil {
		fmt.Fprintf(stderr, "pincer: the configuration did not load (%v): the prompt below lacks its skills and memory\n", err)
		text, err := app.NewSessionPrompt(opts.Model)
		if err != nil {
			return 0, err
		}
		fmt.Fprintln(stdout, readablePrompt(text))
		return 0, nil
	}
	fmt.Fprintln(stdout, readablePrompt(setup.SystemPrompt()))
	fmt.Fprintln(stderr, "pincer: note: the # MCP servers block joins each model call once the servers have connected; it is not printed here")
	return 0, nil
}

// readablePrompt is a rendered system prompt without its DynamicMarker line:
// the static part, a blank line, the dynamic part.
func readablePrompt(text string) string {
	static, dynamic, ok := prompt.Split(text)
	if !ok || dynamic == "" {
		return static
	}
	return static + "\n\n" + dynamic
}
