package anthropic

import (
	"github.com/anthropics/anthropic-sdk-go"

	"pincer/core/provider/internal/wire"
)

// systemBlocks turns the system messages' texts into the ordered blocks of the system
// parameter. Each text is split at the DynamicMarker line: the static part before it
// is a block with a cache_control breakpoint (the prefix that stays the same from turn
// to turn and session to session), the dynamic part after it a block without one.
// Without a marker the whole text is one cached block. Only the last static part is
// marked, so several system messages still cost one breakpoint; empty parts are left
// out (Anthropic rejects empty text blocks).
func systemBlocks(texts []string) []anthropic.TextBlockParam {
	var blocks []anthropic.TextBlockParam
	lastStatic := -1
	for _, text := range texts {
		static, dynamic, _ := wire.SplitSystem(text)
		if static != "" {
			blocks = append(blocks, anthropic.TextBlockParam{Text: static})
			lastStatic = len(blocks) - 1
		}
		if dynamic != "" {
			blocks = append(blocks, anthropic.TextBlockParam{Text: dynamic})
		}
	}
	if lastStatic >= 0 {
		blocks[lastStatic].CacheControl = anthropic.NewCacheControlEphemeralParam()
	}
	return blocks
}

// markNewestToolResult puts a cache_control breakpoint on the last tool_result block
// of the conversation: everything up to the newest tool output is then read from the
// cache on the next call of the tool loop.
func markNewestToolResult(msgs []anthropic.MessageParam) {
	for i := len(msgs) - 1; i >= 0; i-- {
		content := msgs[i].Content
		for j := len(content) - 1; j >= 0; j-- {
			if tr := content[j].OfToolResult; tr != nil {
				tr.CacheControl = anthropic.NewCacheControlEphemeralParam()
				return
			}
		}
	}
}
