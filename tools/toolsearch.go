package tools

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

//go:embed toolsearch.md
var toolSearchDescription string

// ToolSearchName is the name of the tool-search tool (Claude Code's).
const ToolSearchName = "ToolSearch"

// DefaultSearchResults is how many tools a keyword search returns when
// max_results is not given (Claude Code's default).
const DefaultSearchResults = 5

// ToolSearchInput is ToolSearch's input, as Claude Code's: a query and how many
// matches a keyword query returns at most.
type ToolSearchInput struct {
	// Query is "select:A,B" (exact names), or keywords with optional "+term"s.
	Query string `json:"query"`
	// MaxResults caps a keyword search's matches; 0 (absent): DefaultSearchResults.
	MaxResults float64 `json:"max_results,omitempty"`
}

const toolSearchSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "query": {"type": "string", "description": "select:NAME1,NAME2 to load tools by exact name, or keywords to search the deferred tools' names and descriptions (+term: must match)."},
    "max_results": {"type": "number", "description": "The most tools a keyword search returns (default 5)."}
  },
  "required": ["query"],
  "additionalProperties": false
}`

// ToolSearch is the tool-search tool (Claude Code's ToolSearch): it searches
// the session's deferred tools (Env.Deferred) and returns the matches' full
// definitions in a <functions> block; the agent reads the names back from that
// block (LoadedByResult) and offers those tools in full from the next model call
// on, for the rest of the session. It only reads what the agent gave it in
// Env.Deferred: it runs nothing, loads no tool that is not registered and
// deferred, and what a loaded tool may do is still decided by the permission
// rules at each call.
type ToolSearch struct{}

// Spec describes ToolSearch: KindRead, concurrency-safe, never deferred.
func (ToolSearch) Spec() Spec {
	return Spec{Name: ToolSearchName, Description: toolSearchDescription, Schema: json.RawMessage(toolSearchSchema),
		Kind: KindRead, ConcurrencySafe: true}
}

// Summary returns "ToolSearch: QUERY" (the query cut to 80 runes).
func (ToolSearch) Summary(in ToolSearchInput) string {
	q := strings.Join(strings.Fields(in.Query), " ")
	if r := []rune(q); len(r) > 80 {
		q = string(r[:79]) + "…"
	}
	return ToolSearchName + ": " + q
}

// Run answers the query over env.Deferred. A select: names the tools to load,
// each reported when it is not a deferred tool; keywords load the best
// matches. No match is an ordinary result saying so (not an error), naming
// how to look again.
func (ToolSearch) Run(_ context.Context, env *Env, in ToolSearchInput) (Result, error) {
	var deferred []Spec
	if env != nil {
		deferred = env.Deferred
	}
	if strings.TrimSpace(in.Query) == "" {
		return Result{}, fmt.Errorf("query is empty: give select:NAME or keywords")
	}
	if len(deferred) == 0 {
		return Result{Output: "No tools are deferred in this session: every available tool is already in your tool list."}, nil
	}
	if names, ok := SelectedNames(in.Query); ok {
		var found []Spec
		var missing, near []string
		for _, n := range names {
			s, fold, ok := specNamed(deferred, n)
			switch {
			case ok:
				found = append(found, s)
			case fold != "":
				near = append(near, cut(n, 100)+" (did you mean "+cut(fold, 100)+"?)")
			default:
				missing = append(missing, cut(n, 100))
			}
		}
		out := formatFound(found)
		add := func(line string) {
			if out != "" {
				out += "\n"
			}
			out += line
		}
		if len(near) > 0 {
			add("Not loaded, names differ in case: " + strings.Join(near, ", ") +
				". select: takes exact names; permission rules match names exactly too.")
		}
		if len(missing) > 0 {
			add("Not among the deferred tools: " + strings.Join(missing, ", ") +
				". A tool already in your tool list needs no loading; any other name does not exist here.")
		}
		return Result{Output: out}, nil
	}
	max := DefaultSearchResults
	if in.MaxResults >= 1 && !math.IsInf(in.MaxResults, 0) {
		max = int(min(in.MaxResults, float64(len(deferred))))
	}
	found := SearchSpecs(in.Query, deferred, max)
	if len(found) == 0 {
		return Result{Output: fmt.Sprintf("No deferred tool matches %q. Try other keywords, or select:NAME with a name from the deferred tools listed in the system prompt.",
			cut(in.Query, 200))}, nil
	}
	return Result{Output: formatFound(found)}, nil
}

// specNamed finds the spec called exactly name (case-sensitive, as permission
// rules match names: a case-insensitive match could load mcp__srv__Danger for a
// select of a denied mcp__srv__danger). When none is, fold is a name equal to
// it ignoring case ("" for none), for a "did you mean" note; it loads nothing.
func specNamed(specs []Spec, name string) (spec Spec, fold string, ok bool) {
	for _, s := range specs {
		if s.Name == name {
			return s, "", true
		}
		if fold == "" && strings.EqualFold(s.Name, name) {
			fold = s.Name
		}
	}
	return Spec{}, fold, false
}

func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// The result's <functions> block: one <function>JSON</function> line per
// loaded tool, the JSON an object of description, name and parameters (the
// schema). encoding/json escapes '<' and '>' in every string, so no
// description or schema can end a line's element early or add one.
const (
	functionsOpen  = "<functions>"
	functionsClose = "</functions>"
	functionOpen   = "<function>"
	functionClose  = "</function>"
)

// functionDef is one tool's definition as the result writes it.
type functionDef struct {
	Description string          `json:"description"`
	Name        string          `json:"name"`
	Parameters  json.RawMessage `json:"parameters"`
}

// formatFound is the result text loading specs ("" for none).
func formatFound(specs []Spec) string {
	if len(specs) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Loaded %d tool(s); each is callable from now on, for the rest of the session:\n%s\n", len(specs), functionsOpen)
	for _, s := range specs {
		schema := s.Schema
		if !json.Valid(schema) {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		line, err := json.Marshal(functionDef{Description: s.Description, Name: s.Name, Parameters: schema})
		if err != nil {
			continue
		}
		b.WriteString(functionOpen)
		b.Write(line)
		b.WriteString(functionClose + "\n")
	}
	b.WriteString(functionsClose)
	return b.String()
}

// LoadedByResult returns the tool names a ToolSearch result loaded: the names
// of its <function> lines, in order. Lines that are not such an element (a
// hook's feedback appended to the result, say) are ignored.
func LoadedByResult(output string) []string {
	var names []string
	sc := bufio.NewScanner(strings.NewReader(output))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Text()
		body, ok := strings.CutPrefix(line, functionOpen)
		if !ok {
			continue
		}
		body, ok = strings.CutSuffix(body, functionClose)
		if !ok {
			continue
		}
		var def functionDef
		if json.Unmarshal([]byte(body), &def) == nil && def.Name != "" {
			names = append(names, def.Name)
		}
	}
	return names
}
