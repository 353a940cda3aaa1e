package subagent

import (
	"fmt"
	"strings"
)

// modelAliases are Claude Code's model aliases and the catalog model each
// stands for (the newest of its family core/provider/catalog knows).
var modelAliases = map[string]string{
	"sonnet": "claude-sonnet-4-5",
	"opus":   "claude-opus-4-1",
	"haiku":  "claude-haiku-4-5",
}

// ResolveModel is the model a subagent of a definition asking for want runs
// on, given the parent's model ID; "" means the parent's model. pincer keeps
// the parent's provider (one connection, one key): "" and "inherit" inherit;
// an alias (sonnet, opus, haiku) becomes that Claude model when the parent
// runs a Claude model (keeping a vendor prefix: "anthropic/claude-…" for
// OpenRouter), and inherits otherwise — a definition written for Claude
// still runs on the person's chosen provider — with a note; any other value
// is a model ID on the parent's provider, used as written.
func ResolveModel(want, parentModel string) (model string, note string) {
	want = strings.TrimSpace(want)
	if want == "" || want == "inherit" {
		return "", ""
	}
	id, alias := modelAliases[strings.ToLower(want)]
	if !alias {
		return want, ""
	}
	vendor, bare := "", parentModel
	if i := strings.LastIndex(parentModel, "/"); i >= 0 {
		vendor, bare = parentModel[:i+1], parentModel[i+1:]
	}
	if !strings.HasPrefix(strings.ToLower(bare), "claude") {
		return "", fmt.Sprintf("model %s names a Claude model; the parent runs %s: inherited", want, parentModel)
	}
	return vendor + id, ""
}
