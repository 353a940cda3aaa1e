package app

import (
	"context"
	"fmt"
	"strings"

	"pincer/core/mcp"
	"pincer/core/skill"
)

// MCP prompts as slash commands, as Claude Code offers them: each prompt of a
// ready server is /mcp__SERVER__PROMPT (names sanitised as tool names are),
// listed in completion and /help with its description and arguments, and
// `/mcp__SERVER__PROMPT ARGS` — in the workbench or `pincer run` — asks the
// server for the prompt (prompts/get) and sends its messages' text as the
// turn's input. mcpPrompts is the skill catalog's Source over the Run's
// Manager: its entries are asked each time, so servers coming and going are
// followed.

// mcpPrompts is a skill.Source of the ready servers' prompts.
type mcpPrompts struct{ m *mcp.Manager }

// Entries lists the ready servers' prompts.
func (p mcpPrompts) Entries() []skill.Entry {
	var out []skill.Entry
	for _, st := range p.m.States() {
		if st.Status != mcp.StatusReady {
			continue
		}
		for _, pr := range st.Prompts {
			out = append(out, skill.Entry{Name: mcp.ToolName(st.Config.Name, pr.Name), Description: pr.Description,
				ArgumentHint: promptHint(pr), Origin: skill.Origin("mcp:" + st.Config.Name), Kind: skill.KindMCPPrompt})
		}
	}
	return out
}

// Expand gets the prompt name ("mcp__SERVER__PROMPT") with args from its server.
func (p mcpPrompts) Expand(ctx context.Context, name, args string) (string, error) {
	for _, st := range p.m.States() {
		for _, pr := range st.Prompts {
			if mcp.ToolName(st.Config.Name, pr.Name) != name {
				continue
			}
			values, err := promptArgs(pr, args)
			if err != nil {
				return "", fmt.Errorf("/%s: %w", name, err)
			}
			return p.m.GetPrompt(ctx, st.Config.Name, pr.Name, values)
		}
	}
	return "", fmt.Errorf("/%s: no ready MCP server offers this prompt now (see /mcp)", name)
}

// promptHint is a prompt's arguments as completion shows them: "<required>
// [optional]".
func promptHint(p mcp.PromptInfo) string {
	var words []string
	for _, a := range p.Arguments {
		if a.Required {
			words = append(words, "<"+a.Name+">")
		} else {
			words = append(words, "["+a.Name+"]")
		}
	}
	return strings.Join(words, " ")
}

// promptArgs gives a prompt's arguments, in its order, the words of args
// (split at white space; "double" or 'single' quotes keep spaces in one
// word); the words past the last argument join it. A required argument left
// without a word is an error naming it; extra words for a prompt that takes
// none are an error too. Pure, for the table test.
func promptArgs(p mcp.PromptInfo, args string) (map[string]string, error) {
	words, err := splitWords(args)
	if err != nil {
		return nil, err
	}
	if len(p.Arguments) == 0 {
		if len(words) > 0 {
			return nil, fmt.Errorf("prompt %s takes no arguments, got %q", p.Name, args)
		}
		return nil, nil
	}
	out := map[string]string{}
	for i, a := range p.Arguments {
		switch {
		case i < len(words) && i == len(p.Arguments)-1:
			out[a.Name] = strings.Join(words[i:], " ")
		case i < len(words):
			out[a.Name] = words[i]
		case a.Required:
			return nil, fmt.Errorf("prompt %s needs %s (usage: %s)", p.Name, a.Name, promptHint(p))
		}
	}
	return out, nil
}

// splitWords splits s at white space, keeping quoted spaces.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	in, quote := false, rune(0)
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, in = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed %c in %q", quote, s)
	}
	if in {
		words = append(words, cur.String())
	}
	return words, nil
}
