package tools

import (
	"fmt"
	"strconv"
	"strings"
)

// Deferred tools (as Claude Code's tool search): a tool whose definition is
// deferred is left out of the model's requests and announced by name only;
// the model loads it with ToolSearch, and from then on, for the rest of the
// session, it is offered in full. Which tools are deferred is decided per model
// call by Deferred over the tools registered then, a SearchPolicy and the
// model's context window.

// SearchMode is the tool-search setting's mode.
type SearchMode string

// Search modes, as Claude Code's ENABLE_TOOL_SEARCH values.
const (
	// SearchAuto (the zero value, "auto" or "auto:N"): DeferAuto tools are
	// deferred only once their definitions together pass Percent of the
	// context window; DeferAlways tools always are.
	SearchAuto SearchMode = ""
	// SearchAlways ("always", ENABLE_TOOL_SEARCH=true): every DeferAuto and
	// DeferAlways tool is deferred.
	SearchAlways SearchMode = "always"
	// SearchNever ("never", ENABLE_TOOL_SEARCH=false): nothing is deferred and
	// ToolSearch is never offered; every tool's definition is in every request.
	SearchNever SearchMode = "never"
)

// DefaultSearchPercent is auto's share of the context window (Claude Code's 10%).
const DefaultSearchPercent = 10

// AssumedContextWindow is the window, in tokens, auto's threshold is taken
// from when the model's window is unknown (the catalog does not list it).
const AssumedContextWindow = 128_000

// SearchPolicy is the tool-search setting: pincer's `[tools] search` or the
// environment's ENABLE_TOOL_SEARCH (ParseSearchPolicy). The zero value is
// auto at DefaultSearchPercent.
type SearchPolicy struct {
	Mode SearchMode
	// Percent is auto's threshold, a share of the context window from 1 to
	// 100; 0 means DefaultSearchPercent.
	Percent int
}

// String is the policy as the setting writes it: "auto:10", "always", "never".
func (p SearchPolicy) String() string {
	switch p.Mode {
	case SearchAlways, SearchNever:
		return string(p.Mode)
	}
	return "auto:" + strconv.Itoa(p.percent())
}

func (p SearchPolicy) percent() int {
	if p.Percent <= 0 {
		return DefaultSearchPercent
	}
	return p.Percent
}

// ParseSearchPolicy reads a tool-search setting: "auto", "auto:N" (N a
// percent from 1 to 100), "always" or "never" — and Claude Code's
// ENABLE_TOOL_SEARCH forms "true"/"1" (always) and "false"/"0" (never).
// Case and surrounding spaces do not matter. Any other text is an error
// naming the forms.
func ParseSearchPolicy(s string) (SearchPolicy, error) {
	v := strings.ToLower(strings.TrimSpace(s))
	switch v {
	case "auto":
		return SearchPolicy{}, nil
	case "always", "true", "1":
		return SearchPolicy{Mode: SearchAlways}, nil
	case "never", "false", "0":
		return SearchPolicy{Mode: SearchNever}, nil
	}
	if n, ok := strings.CutPrefix(v, "auto:"); ok {
		pct, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(n), "%"))
		if err != nil || pct < 1 || pct > 100 {
			return SearchPolicy{}, fmt.Errorf("tool search %q: auto:N wants a percent N from 1 to 100", s)
		}
		return SearchPolicy{Percent: pct}, nil
	}
	return SearchPolicy{}, fmt.Errorf("tool search %q: want auto, auto:N (a percent), always or never", s)
}

// SpecTokens estimates the tokens a tool's definition costs in a request: its
// name, description and schema at about four bytes a token, plus a small
// overhead (the estimate the agent uses for messages).
func SpecTokens(s Spec) int64 {
	return 8 + int64(len(s.Name)+len(s.Description)+len(s.Schema))/4
}

// Deferred returns the names of the tools among specs whose definitions are
// deferred under p with a context window of window tokens (0: unknown, then
// AssumedContextWindow): under SearchNever none; under SearchAlways every
// DeferAuto and DeferAlways tool; under auto every DeferAlways tool, and the
// DeferAuto tools too once their SpecTokens together pass p's percent of the
// window. nil when none is deferred. ToolSearchName itself is never deferred.
func Deferred(specs []Spec, p SearchPolicy, window int64) map[string]bool {
	if p.Mode == SearchNever {
		return nil
	}
	if window <= 0 {
		window = AssumedContextWindow
	}
	var auto int64
	for _, s := range specs {
		if s.Defer == DeferAuto && s.Name != ToolSearchName {
			auto += SpecTokens(s)
		}
	}
	autoDeferred := p.Mode == SearchAlways || auto*100 > window*int64(p.percent())
	var out map[string]bool
	for _, s := range specs {
		if s.Name == ToolSearchName {
			continue
		}
		if s.Defer == DeferAlways || (s.Defer == DeferAuto && autoDeferred) {
			if out == nil {
				out = map[string]bool{}
			}
			out[s.Name] = true
		}
	}
	return out
}
