package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// GetPrompt asks server for its prompt called name with args and returns the
// prompt's messages as one text (the input of the turn a slash command
// /mcp__SERVER__PROMPT starts): each message's content as resultText renders
// a tool result, messages separated by blank lines. Errors: no such server, the
// server not ready, or the server's own error.
func (m *Manager) GetPrompt(ctx context.Context, server, name string, args map[string]string) (string, error) {
	m.mu.Lock()
	s := m.servers[server]
	m.mu.Unlock()
	if s == nil {
		return "", fmt.Errorf("no MCP server %q", server)
	}
	s.mu.Lock()
	sess := s.sess
	status := s.state.Status
	s.mu.Unlock()
	if sess == nil || status != StatusReady {
		return "", fmt.Errorf("MCP server %s is not ready (%s)", server, status)
	}
	res, err := sess.GetPrompt(ctx, &sdk.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return "", fmt.Errorf("MCP server %s: prompt %s: %w", server, name, err)
	}
	var parts []string
	for _, msg := range res.Messages {
		if msg == nil || msg.Content == nil {
			continue
		}
		parts = append(parts, resultText(&sdk.CallToolResult{Content: []sdk.Content{msg.Content}}))
	}
	return strings.Join(parts, "\n\n"), nil
}
