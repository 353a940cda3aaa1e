package tools

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ToolSearch's query language (Claude Code's): "select:A,B" names tools
// exactly; anything else is keywords matched against each tool's name parts
// and description, "+term" marking a term every match must contain. The search
// is plain text comparison (no regular expressions), so a query is never
// interpreted: metacharacters, any Unicode and any length are just text.

// Query bounds: the words of a query past maxQueryTerms, and the bytes of a
// term past maxTermBytes, are ignored.
const (
	maxQueryTerms = 32
	maxTermBytes  = 200
	// maxSelectNames is how many names a select: takes; later ones are ignored.
	maxSelectNames = 64
)

// Search scores, best first.
const (
	scoreExactName  = 100 // the term is the whole name
	scoreNamePart   = 10  // the term is one of the name's parts
	scorePartPrefix = 5   // a name part starts with the term
	scoreInName     = 3   // the name contains the term elsewhere
	scoreDescWord   = 2   // the description has the term as a word
	scoreInDesc     = 1   // the description contains the term
)

// SelectedNames returns the names of a "select:A,B" query (trimmed, empties
// and repeats dropped, in the query's order, at most maxSelectNames) and true;
// false for any other query.
func SelectedNames(query string) ([]string, bool) {
	q := strings.TrimSpace(query)
	rest, ok := cutPrefixFold(q, "select:")
	if !ok {
		return nil, false
	}
	var names []string
	for _, n := range strings.Split(rest, ",") {
		n = strings.TrimSpace(n)
		if n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
		if len(names) == maxSelectNames {
			break
		}
	}
	return names, true
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// SearchSpecs returns the specs a keyword query matches, best first (ties by
// name), at most max (max < 1: all). Each term is compared case-insensitively
// with the tool's name parts (NameParts), its whole name and its description;
// a spec must match every "+term" (the plain terms then only rank) and, when
// the query has none, at least one plain term. A query with no usable term matches nothing.
func SearchSpecs(query string, specs []Spec, max int) []Spec {
	required, optional := queryTerms(query)
	if len(required) == 0 && len(optional) == 0 {
		return nil
	}
	type hit struct {
		spec  Spec
		score int
	}
	var hits []hit
	for _, s := range specs {
		name := strings.ToLower(s.Name)
		parts := NameParts(s.Name)
		desc := strings.ToLower(s.Description)
		score, ok := 0, true
		for _, t := range required {
			n := termScore(t, name, parts, desc)
			if n == 0 {
				ok = false
				break
			}
			score += n
		}
		if !ok {
			continue
		}
		any := len(optional) == 0 || len(required) > 0
		for _, t := range optional {
			if n := termScore(t, name, parts, desc); n > 0 {
				score += n
				any = true
			}
		}
		if any && score > 0 {
			hits = append(hits, hit{s, score})
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if a.score != b.score {
			return b.score - a.score
		}
		return strings.Compare(a.spec.Name, b.spec.Name)
	})
	if max > 0 && len(hits) > max {
		hits = hits[:max]
	}
	out := make([]Spec, len(hits))
	for i, h := range hits {
		out[i] = h.spec
	}
	return out
}

// queryTerms splits a keyword query into its required ("+term") and plain
// terms, lowercased, bounded by maxQueryTerms and maxTermBytes.
func queryTerms(query string) (required, optional []string) {
	for i, w := range strings.Fields(query) {
		if i >= maxQueryTerms {
			break
		}
		req := strings.HasPrefix(w, "+")
		w = strings.ToLower(strings.TrimLeft(w, "+"))
		if len(w) > maxTermBytes {
			w = w[:maxTermBytes]
			for len(w) > 0 && !utf8.ValidString(w) {
				w = w[:len(w)-1]
			}
		}
		if w == "" {
			continue
		}
		if req {
			required = append(required, w)
		} else {
			optional = append(optional, w)
		}
	}
	return required, optional
}

// termScore is how well one lowercased term matches a tool: its lowercased
// name, name parts and description (0: not at all).
func termScore(term, name string, parts []string, desc string) int {
	if term == name {
		return scoreExactName
	}
	best := 0
	for _, p := range parts {
		switch {
		case p == term:
			best = max(best, scoreNamePart)
		case strings.HasPrefix(p, term):
			best = max(best, scorePartPrefix)
		}
	}
	if best == 0 && strings.Contains(name, term) {
		best = scoreInName
	}
	switch {
	case hasWord(desc, term):
		best += scoreDescWord
	case strings.Contains(desc, term):
		best += scoreInDesc
	}
	return best
}

// hasWord reports whether s contains term with no letter or digit right before
// or after it.
func hasWord(s, term string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], term)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(term)
		before, _ := utf8.DecodeLastRuneInString(s[:start])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if (start == 0 || !isWordRune(before)) && (end == len(s) || !isWordRune(after)) {
			return true
		}
		i = start + 1
	}
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// NameParts splits a tool name into its lowercased words: at "__", "_", "-",
// "." and the lower-to-upper steps of camelCase ("mcp__github__createIssue"
// -> mcp, github, create, issue).
func NameParts(name string) []string {
	var parts []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			parts = append(parts, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	var prev rune
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == '.' || unicode.IsSpace(r):
			flush()
		case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
		prev = r
	}
	flush()
	return parts
}
