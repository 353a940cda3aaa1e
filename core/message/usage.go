package message

// Usage counts the tokens of one or more model calls, as the provider reported them.
// InputTokens excludes cache reads and writes where the provider reports them apart
// (Anthropic); for Chat Completions, cached prompt tokens are part of InputTokens and
// also counted in CacheReadTokens. CostUSD is nil when a price is unknown — never 0
// for "unknown".
type Usage struct {
	InputTokens      int64 `json:"inputTokens"`
	OutputTokens     int64 `json:"outputTokens"`
	CacheReadTokens  int64 `json:"cacheReadTokens"`
	CacheWriteTokens int64 `json:"cacheWriteTokens"`
	ReasoningTokens  int64 `json:"reasoningTokens,omitempty"`
	// WebSearchRequests counts the searches a provider's server-side web search
	// tool ran (Anthropic's usage.server_tool_use.web_search_requests).
	WebSearchRequests int64    `json:"webSearchRequests,omitempty"`
	CostUSD           *float64 `json:"costUsd,omitempty"`
}

// Add accumulates o into u. Reported costs add up; a side without a cost adds none.
func (u *Usage) Add(o Usage) {
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.CacheReadTokens += o.CacheReadTokens
	u.CacheWriteTokens += o.CacheWriteTokens
	u.ReasoningTokens += o.ReasoningTokens
	u.WebSearchRequests += o.WebSearchRequests
	if o.CostUSD != nil {
		c := *o.CostUSD
		if u.CostUSD != nil {
			c += *u.CostUSD
		}
		u.CostUSD = &c
	}
}
