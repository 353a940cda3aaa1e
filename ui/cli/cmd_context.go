package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"pincer/core/agent"
	"pincer/core/app"
	"pincer/core/prompt"
)

// showContext answers `pincer run "/context"` (with --continue or --session for an
// existing session) without calling the model: the model and its window, how much
// of it the next call would use, and which instruction files are loaded.
func showContext(ctx context.Context, setup *app.Setup, w io.Writer) error {
	var use agent.ContextUse
	mc, ws := setup.Model, setup.Workspace
	if setup.Options.Continue || setup.Options.Session != "" {
		run, err := setup.Start(ctx, nil)
		if err != nil {
			return err
		}
		defer run.Close()
		if use, err = run.Agent.EstimateContext(ctx, run.SessionID); err != nil {
			return err
		}
		fmt.Fprintf(w, "Session %s\n", run.SessionID)
	} else {
		ag, store, err := setup.NewAgent(nil)
		if err != nil {
			return err
		}
		defer store.Close()
		if use, err = ag.EstimateContext(ctx, ""); err != nil {
			return err
		}
		fmt.Fprintln(w, "New session (its system prompt and tool definitions; MCP servers' tools not counted)")
	}
	fmt.Fprintf(w, "Model %s\n", mc.ID())
	if window, _, ok := app.ModelInfo(mc); ok && window > 0 {
		use.Window = window
	}
	if use.Window > 0 {
		fmt.Fprintf(w, "Context ~%d of %d tokens (%.1f%%), %s\n", use.Tokens, use.Window,
			100*float64(use.Tokens)/float64(use.Window), messagesWord(use.Messages))
	} else {
		fmt.Fprintf(w, "Context ~%d tokens, window unknown (no automatic compaction; context_window in config.toml's [models.\"ID\"] sets it), %s\n", use.Tokens, messagesWord(use.Messages))
	}
	fmt.Fprintf(w, "  tool definitions: ~%d tokens (%d tools)\n  messages: ~%d tokens\n", use.ToolTokens, use.Tools, use.Tokens-use.ToolTokens)
	home, _ := os.UserHomeDir()
	in, err := prompt.LoadInstructions(ws.Root(), os.Getenv("PINCER_HOME"), home)
	if err != nil {
		return err
	}
	if len(in.Files) == 0 {
		fmt.Fprintln(w, "Instructions: none (AGENTS.md, CLAUDE.md)")
	} else {
		fmt.Fprintf(w, "Instructions (%d bytes):\n", in.TotalBytes())
		for _, file := range in.Files {
			note := ""
			if file.Imported {
				note = " (imported)"
			}
			fmt.Fprintf(w, "  %6d  %s%s\n", file.Bytes, file.Path, note)
		}
	}
	for _, n := range in.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	return nil
}

// messagesWord is "1 message" or "N messages".
func messagesWord(n int) string {
	if n == 1 {
		return "1 message"
	}
	return fmt.Sprintf("%d messages", n)
}
