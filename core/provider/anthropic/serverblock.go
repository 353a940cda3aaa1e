package anthropic

import (
	"encoding/json"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/packages/param"

	"pincer/core/message"
	"pincer/core/provider"
)

// Anthropic's server-side web search: the request declares the tool
// (web_search_20250305); the server runs the searches within the model call and
// streams, between the text blocks, a server_tool_use block (its query arrives as
// input_json_delta fragments) and a web_search_tool_result block (complete at
// content_block_start: titles, URLs, encrypted contents). Both are kept as
// message.PartServerBlock parts, their JSON as Raw, and go back unchanged.

// The content block types of a server tool call kept as server blocks.
const (
	blockServerToolUse   = "server_tool_use"
	blockWebSearchResult = "web_search_tool_result"
)

// serverBlock is a server_tool_use block being assembled.
type serverBlock struct {
	start string // the block of content_block_start, as sent
	id    string
	args  strings.Builder
}

// webSearchTool is the declaration of the web search tool for ws, nil when ws
// allows no search.
func webSearchTool(ws *provider.WebSearch) *anthropic.ToolUnionParam {
	if ws == nil || ws.MaxUses <= 0 {
		return nil
	}
	t := anthropic.WebSearchTool20250305Param{MaxUses: anthropic.Int(int64(ws.MaxUses))}
	if len(ws.AllowedDomains) > 0 {
		t.AllowedDomains = ws.AllowedDomains
	} else if len(ws.BlockedDomains) > 0 {
		t.BlockedDomains = ws.BlockedDomains
	}
	return &anthropic.ToolUnionParam{OfWebSearchTool20250305: &t}
}

// serverUsePart is the part of a finished server_tool_use block: its start block
// with "input" replaced by the streamed arguments (kept as sent when none came).
func serverUsePart(b *serverBlock) message.Part {
	input := b.args.String()
	raw := b.start
	var fields map[string]json.RawMessage
	if json.Unmarshal([]byte(b.start), &fields) == nil {
		if input != "" && json.Valid([]byte(input)) {
			fields["input"] = json.RawMessage(input)
			if out, err := json.Marshal(fields); err == nil {
				raw = string(out)
			}
		} else if in, ok := fields["input"]; ok {
			input = string(in)
		}
	}
	var name string
	_ = json.Unmarshal(fields["name"], &name)
	return message.Part{Type: message.PartServerBlock, ToolName: blockServerToolUse, ToolCallID: b.id,
		Input: input, Raw: raw, Text: name}
}

// searchResultPart is the part of a web_search_tool_result block, raw as sent:
// Text lists its results ("title <url>" a line), or the error code when the search
// failed (IsError).
func searchResultPart(raw, toolUseID string) message.Part {
	p := message.Part{Type: message.PartServerBlock, ToolName: blockWebSearchResult, ToolCallID: toolUseID, Raw: raw}
	var block struct {
		Content json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal([]byte(raw), &block)
	var hits []struct {
		Title string `json:"title"`
		URL   string `json:"url"`
	}
	if json.Unmarshal(block.Content, &hits) == nil {
		lines := make([]string, 0, len(hits))
		for _, h := range hits {
			lines = append(lines, strings.TrimSpace(h.Title+" <"+h.URL+">"))
		}
		p.Text = strings.Join(lines, "\n")
		return p
	}
	var failed struct {
		ErrorCode string `json:"error_code"`
	}
	_ = json.Unmarshal(block.Content, &failed)
	p.IsError, p.Text = true, "web search failed: "+failed.ErrorCode
	return p
}

// serverBlockParam is a kept server block for the request, its JSON sent as
// stored; ok false for a block of a type this adapter does not send back.
func serverBlockParam(part message.Part) (anthropic.ContentBlockParamUnion, bool) {
	raw := json.RawMessage(part.Raw)
	if !isJSONObject(raw) {
		return anthropic.ContentBlockParamUnion{}, false
	}
	switch part.ToolName {
	case blockServerToolUse:
		b := param.Override[anthropic.ServerToolUseBlockParam](raw)
		return anthropic.ContentBlockParamUnion{OfServerToolUse: &b}, true
	case blockWebSearchResult:
		b := param.Override[anthropic.WebSearchToolResultBlockParam](raw)
		return anthropic.ContentBlockParamUnion{OfWebSearchToolResult: &b}, true
	}
	return anthropic.ContentBlockParamUnion{}, false
}
