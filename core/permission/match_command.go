package permission

import (
	"regexp"
	"strings"
	"sync"
)

// Bash command patterns, as Claude Code's shell rule matching reads them. A pattern
// is matched against one simple command's text (never a whole compound line):
//
//   - Legacy prefix: `npm run test:*` matches `npm run test` and `npm run test ...`
//     — the prefix, then nothing or a space: a word boundary, so not `npm run testx`.
//   - Wildcard: any other unescaped `*` matches any run of characters, spaces
//     included: `git * main` matches `git checkout main`. As in Claude Code, a
//     pattern whose only wildcard is a trailing ` *` also matches the bare
//     command: `git *` matches `git` (and `git status`, but not `gitk`).
//   - Exact: anything else must equal the command text.
//
// `\*` is a literal star and `\\` a literal backslash, so AlwaysRules can write an
// exact rule for any command (escapeCommand).

// commandPattern is a compiled Bash specifier.
type commandPattern struct {
	exact  string         // exact text, when re is nil and !prefix
	prefix bool           // legacy `:*` prefix form; exact holds the prefix
	re     *regexp.Regexp // wildcard form
}

var patternCache sync.Map // specifier -> commandPattern

// compileCommand compiles a Bash specifier (cached: rule sets are evaluated once
// per tool call).
func compileCommand(spec string) commandPattern {
	if p, ok := patternCache.Load(spec); ok {
		return p.(commandPattern)
	}
	p := buildCommandPattern(spec)
	patternCache.Store(spec, p)
	return p
}

func buildCommandPattern(spec string) commandPattern {
	segs, stars := splitStars(spec)
	if stars == 1 && len(segs) == 2 && segs[1] == "" && strings.HasSuffix(segs[0], ":") &&
		strings.HasSuffix(spec, ":*") {
		return commandPattern{exact: strings.TrimSuffix(segs[0], ":"), prefix: true}
	}
	if stars == 0 {
		return commandPattern{exact: segs[0]}
	}
	var b strings.Builder
	b.WriteString(`^(?s:`)
	optionalTail := stars == 1 && segs[1] == "" && strings.HasSuffix(segs[0], " ")
	for i, seg := range segs {
		if i == len(segs)-2 && optionalTail {
			b.WriteString(regexp.QuoteMeta(strings.TrimSuffix(seg, " ")))
			b.WriteString(`(?: .*)?`)
			break
		}
		b.WriteString(regexp.QuoteMeta(seg))
		if i < len(segs)-1 {
			b.WriteString(`.*`)
		}
	}
	b.WriteString(`)$`)
	return commandPattern{re: regexp.MustCompile(b.String())}
}

// splitStars splits spec at its unescaped stars, unescaping `\*` and `\\` in the
// literal segments; it returns the segments (one more than the stars) and the
// number of stars.
func splitStars(spec string) ([]string, int) {
	var segs []string
	var cur strings.Builder
	for i := 0; i < len(spec); i++ {
		c := spec[i]
		switch {
		case c == '\\' && i+1 < len(spec) && (spec[i+1] == '*' || spec[i+1] == '\\'):
			cur.WriteByte(spec[i+1])
			i++
		case c == '*':
			segs = append(segs, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	segs = append(segs, cur.String())
	return segs, len(segs) - 1
}

// match reports whether cmd (one simple command's text) matches p.
func (p commandPattern) match(cmd string) bool {
	switch {
	case p.re != nil:
		return p.re.MatchString(cmd)
	case p.prefix:
		return cmd == p.exact || strings.HasPrefix(cmd, p.exact+" ")
	}
	return cmd == p.exact
}

// wildcard reports whether p matches more than one text.
func (p commandPattern) wildcard() bool { return p.re != nil || p.prefix }

// escapeCommand is the Bash specifier that matches exactly cmd.
func escapeCommand(cmd string) string {
	return strings.NewReplacer(`\`, `\\`, `*`, `\*`).Replace(cmd)
}

// matchCommandRule reports whether a Bash rule matches any of texts. A rule of
// another tool never does; a bare `Bash` matches every command.
func matchCommandRule(r Rule, texts ...string) bool {
	if r.Tool != "Bash" {
		return false
	}
	if r.Specifier == "" {
		return true
	}
	p := compileCommand(r.Specifier)
	for _, t := range texts {
		if p.match(t) {
			return true
		}
	}
	return false
}

// firstCommandRule returns the first Bash rule of rules matching any of texts.
func firstCommandRule(rules []Rule, texts ...string) (Rule, bool) {
	for _, r := range rules {
		if matchCommandRule(r, texts...) {
			return r, true
		}
	}
	return Rule{}, false
}

// quoteWord renders a literal word as a user would type it: as is when nothing in
// it means something to the shell, else in single quotes.
func quoteWord(w string) string {
	if w == "" {
		return "''"
	}
	if !strings.ContainsAny(w, " \t\n'\"\\$`|&;<>()*?[]#~!{}") {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
