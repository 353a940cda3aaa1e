package permission

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Rule is one permission rule in Claude Code's syntax: `Tool` (every call of the
// tool) or `Tool(specifier)`. What the specifier means depends on the tool:
//
//   - Bash: a command pattern, matched against each simple command (match_command.go):
//     exact `Bash(npm run build)`, legacy prefix `Bash(npm run test:*)`, wildcard
//     `Bash(git * main)`; `\*` is a literal star.
//   - WebFetch: `domain:example.com` (match.go).
//   - mcp__server__tool, mcp__server: no specifier (mcp__server is every tool of
//     the server, and so is mcp__server__*).
//   - Every other tool (Read, Edit, Write, Glob, Grep, ...): a gitignore-style path
//     pattern with Claude Code's anchors (match_path.go). Edit and Write rules apply
//     to every tool that edits files, Read rules to every tool that reads them.
//
// Source says where the rule was read ("user config", ".pincer/config.toml",
// ".claude/settings.json", "session", "--allowed-tools", ...); it is not part of
// the rule's text.
//
// Project marks a rule read from a file of the workspace (RulesFrom, from
// config.PermissionTable.Project): such an allow rule never allows a call that
// reaches outside the workspace (a Read, Grep or Glob of a path outside it, as
// written or with symlinks resolved, or of a credential path; a read-only command
// reading there), nor a fetch (WebFetch, WebSearch, the server-side search) —
// a cloned repository cannot grant itself the person's home or the network.
//
// Reason, set only on a rule pincer makes itself (the deny-all rules of a
// configuration it could not read), is the whole reason of a decision the
// rule makes, in place of "X is denied by the rule Tool": no file wrote the
// rule, so its text would name a rule the person cannot find.
type Rule struct {
	Tool, Specifier, Source string
	Project                 bool
	Reason                  string
}

// String returns the canonical form, which ParseRule reads back to the same Tool
// and Specifier: `Tool` or `Tool(specifier)`.
func (r Rule) String() string {
	if r.Specifier == "" {
		return r.Tool
	}
	return r.Tool + "(" + r.Specifier + ")"
}

// ParseRule parses one rule. The specifier is everything between the first '('
// and the final ')', so it may itself hold parentheses. `Tool()` and `Bash(*)`
// are the bare `Tool` and `Bash`, as in Claude Code.
func ParseRule(s string) (Rule, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Rule{}, errors.New("empty rule")
	}
	tool, spec := s, ""
	if i := strings.IndexByte(s, '('); i >= 0 {
		if !strings.HasSuffix(s, ")") {
			return Rule{}, fmt.Errorf("rule %q: missing the closing parenthesis", s)
		}
		tool, spec = s[:i], s[i+1:len(s)-1]
	}
	if err := checkToolName(strings.TrimSuffix(tool, "__*")); err != nil || tool == "__*" ||
		(strings.HasSuffix(tool, "__*") && !strings.HasPrefix(tool, "mcp__")) {
		if err == nil {
			err = errors.New("only MCP rules (mcp__server__*) end in __*")
		}
		return Rule{}, fmt.Errorf("rule %q: %w", s, err)
	}
	if spec == "*" && tool == "Bash" {
		spec = ""
	}
	r := Rule{Tool: tool, Specifier: spec}
	if err := checkSpecifier(r); err != nil {
		return Rule{}, fmt.Errorf("rule %q: %w", s, err)
	}
	return r, nil
}

// checkToolName accepts names of letters, digits, '_' and '-' starting with a letter.
func checkToolName(tool string) error {
	if tool == "" {
		return errors.New("no tool name")
	}
	for i, c := range tool {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '_' || c == '-')) {
			return fmt.Errorf("tool name %q: want letters, digits, '_' or '-', starting with a letter", tool)
		}
	}
	return nil
}

// checkSpecifier validates the specifier of r for its tool.
func checkSpecifier(r Rule) error {
	spec := r.Specifier
	switch {
	case spec == "":
		return nil
	case strings.ContainsAny(spec, "\n\r") && r.Tool != "Bash":
		return errors.New("the specifier spans lines")
	case strings.HasPrefix(r.Tool, "mcp__"):
		return errors.New("MCP rules take no specifier: write mcp__server or mcp__server__tool")
	case r.Tool == "WebFetch":
		host, ok := strings.CutPrefix(spec, "domain:")
		if !ok || host == "" || strings.ContainsAny(host, "/ :@") {
			return errors.New("WebFetch rules take domain:HOST, e.g. WebFetch(domain:example.com)")
		}
	case r.Tool == "Bash":
		if strings.HasSuffix(spec, `\`) && !strings.HasSuffix(spec, `\\`) {
			return errors.New("the pattern ends in a lone backslash")
		}
	default:
		if _, pat := pathAnchor(spec); !doublestar.ValidatePattern(pat) {
			return fmt.Errorf("bad path pattern %q", spec)
		}
	}
	return nil
}

// RuleSet is the rules of every source, by behavior. Within a list, order only
// decides which rule a decision names; across lists deny beats ask beats allow.
type RuleSet struct {
	Allow, Ask, Deny []Rule
}

// Merge returns r's rules followed by o's; neither is changed.
func (r RuleSet) Merge(o RuleSet) RuleSet {
	cat := func(a, b []Rule) []Rule {
		out := make([]Rule, 0, len(a)+len(b))
		return append(append(out, a...), b...)
	}
	return RuleSet{Allow: cat(r.Allow, o.Allow), Ask: cat(r.Ask, o.Ask), Deny: cat(r.Deny, o.Deny)}
}

// Add returns r with rules appended to the list of behavior b.
func (r RuleSet) Add(b Behavior, rules ...Rule) RuleSet {
	switch b {
	case Allow:
		return r.Merge(RuleSet{Allow: rules})
	case Ask:
		return r.Merge(RuleSet{Ask: rules})
	default:
		return r.Merge(RuleSet{Deny: rules})
	}
}

// Len is the number of rules in r.
func (r RuleSet) Len() int { return len(r.Allow) + len(r.Ask) + len(r.Deny) }

// ParseRuleList parses a flag value such as --allowed-tools "Bash(git log:*) Read,Edit":
// rules separated by commas or white space outside parentheses, as Claude Code
// reads --allowedTools. Every rule gets source. Bad rules are left out and
// reported together in the error; the good ones are returned either way.
func ParseRuleList(flagValue, source string) ([]Rule, error) {
	var rules []Rule
	var errs []error
	for _, item := range splitRuleList(flagValue) {
		r, err := ParseRule(item)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", source, err))
			continue
		}
		r.Source = source
		rules = append(rules, r)
	}
	return rules, errors.Join(errs...)
}

// splitRuleList splits s at commas and white space outside parentheses; a
// backslash-escaped parenthesis does not count.
func splitRuleList(s string) []string {
	var items []string
	depth, start := 0, 0
	flush := func(end int) {
		if item := strings.TrimSpace(s[start:end]); item != "" {
			items = append(items, item)
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			flush(i)
			start = i + 1
		}
	}
	flush(len(s))
	return items
}
