package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxResultTokens is the size above which an MCP tool result is spilled to a
// file the model can read instead of sent whole (Claude Code's
// MAX_MCP_OUTPUT_TOKENS default, 25,000 tokens).
const MaxResultTokens = 25000

// charsPerToken is the estimate used to turn MaxResultTokens into characters.
const charsPerToken = 4

// maxResultChars is MaxResultTokens in characters.
const maxResultChars = MaxResultTokens * charsPerToken

// resultText renders a tool call's result as the text the model reads:
// text parts joined by blank lines; an image or audio part as a note
// "[image: MIME, N bytes]" (pincer's transcript has no attachment part for
// tool results: core/message's tool result is text, so the note names what was
// left out); a resource link as "[resource link: URI (name)]"; an embedded
// resource with its URI and, for a text resource, its text inlined. With no
// content parts, structured content is shown as JSON.
func resultText(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			parts = append(parts, c.Text)
		case *sdk.ImageContent:
			parts = append(parts, fmt.Sprintf("[image: %s, %d bytes]", orUnknown(c.MIMEType), len(c.Data)))
		case *sdk.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio: %s, %d bytes]", orUnknown(c.MIMEType), len(c.Data)))
		case *sdk.ResourceLink:
			parts = append(parts, resourceLine("resource link", c.URI, c.Name, c.MIMEType))
		case *sdk.EmbeddedResource:
			parts = append(parts, embedded(c.Resource))
		default:
			b, _ := json.Marshal(c)
			parts = append(parts, string(b))
		}
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		parts = append(parts, string(b))
	}
	return strings.Join(parts, "\n\n")
}

// embedded renders an embedded resource: its URI, then its text when it is
// text, else a note of the blob's size.
func embedded(r *sdk.ResourceContents) string {
	if r == nil {
		return "[resource: (empty)]"
	}
	if r.Blob != nil && r.Text == "" {
		return fmt.Sprintf("[resource: %s, %s, %d bytes]", r.URI, orUnknown(r.MIMEType), len(r.Blob))
	}
	return fmt.Sprintf("[resource: %s]\n%s", r.URI, r.Text)
}

func resourceLine(kind, uri, name, mime string) string {
	s := "[" + kind + ": " + uri
	if name != "" && name != uri {
		s += " (" + name + ")"
	}
	if mime != "" {
		s += ", " + mime
	}
	return s + "]"
}

func orUnknown(mime string) string {
	if mime == "" {
		return "unknown type"
	}
	return mime
}
