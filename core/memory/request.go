package memory

import (
	"errors"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// requestPatterns are a person's explicit requests to remember: a prompt
// that opens with "remember that …", "remember: …", "please remember …"
// (with or without "that"), "don't forget that …" or "don't forget: …"
// (case-insensitive, a comma after "please" allowed). "remember to …" and
// "don't forget to …" are left alone: they are about the task at hand.
var requestPatterns = []*regexp.Regexp{
	regexp.MustCompile(`(?is)^\s*(?:please\s*,?\s+)?remember(?:\s+that\b|\s*:)\s*(.+)$`),
	regexp.MustCompile(`(?is)^\s*please\s*,?\s+remember\s+(.+)$`),
	regexp.MustCompile(`(?is)^\s*(?:please\s*,?\s+)?(?:don'?t|do\s+not)\s+forget(?:\s+that\b|\s*:)\s*(.+)$`),
}

// Request reports whether input (the prompt as the person typed it) is an
// explicit request to remember and returns what to remember.
func Request(input string) (string, bool) {
	for _, re := range requestPatterns {
		m := re.FindStringSubmatch(input)
		if m == nil {
			continue
		}
		text := strings.TrimSpace(m[1])
		if text == "" || toTask.MatchString(text) {
			return "", false
		}
		return text, true
	}
	return "", false
}

// toTask is what "please remember" is followed by when it is about the task
// ("please remember to run the tests").
var toTask = regexp.MustCompile(`(?i)^(to|the\s+(?:task|file|change)s?\b)\b`)

// typeWords decide a memory's type from its text's first words.
var (
	userStart     = regexp.MustCompile(`(?i)^(i|i'm|i am|my|me)\b`)
	projectStart  = regexp.MustCompile(`(?i)^(we|our|this (project|repo|repository|codebase)|the (project|repo|repository|codebase))\b`)
	feedbackWords = regexp.MustCompile(`(?i)\b(always|never|don'?t|do not|prefer|avoid|stop|instead of|rather than)\b`)
)

// FromText makes a memory proposal of what a person asked to remember
// (Request's text, /memory add TEXT): the body is the text as a sentence,
// the name its first words, the description its first line; the type user
// for "I …"/"my …", feedback for a rule of working ("always", "never",
// "prefer", …), else project. The caller sets the source and origin.
func FromText(text string) (Proposal, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return Proposal{}, errors.New("nothing to remember: give the text")
	}
	body := sentence(text)
	p := Proposal{Kind: KindMemory, Op: OpAdd, Body: body, Name: nameOf(body),
		Description: OneLine(firstLine(body), 150)}
	switch {
	case userStart.MatchString(text):
		p.Type, p.Scope = TypeUser, ScopeUser
	case feedbackWords.MatchString(text):
		p.Type, p.Scope = TypeFeedback, ScopeProject
	case projectStart.MatchString(text):
		p.Type, p.Scope = TypeProject, ScopeProject
	default:
		p.Type, p.Scope = TypeProject, ScopeProject
	}
	if p.Name == "" {
		return Proposal{}, errors.New("nothing to remember: the text has no words")
	}
	return p, nil
}

// sentence is text with a capital first letter and a full stop.
func sentence(text string) string {
	r, n := utf8.DecodeRuneInString(text)
	text = string(unicode.ToUpper(r)) + text[n:]
	if last, _ := utf8.DecodeLastRuneInString(text); !strings.ContainsRune(".!?)`\"'", last) {
		text += "."
	}
	return text
}

// nameOf is a memory name of text's first (at most six) words, only
// letters and digits kept, at most 48 bytes.
func nameOf(text string) string {
	var words []string
	size := 0
	for _, w := range strings.Fields(firstLine(text)) {
		w = strings.Map(func(r rune) rune {
			if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
				return unicode.ToLower(r)
			}
			return -1
		}, w)
		if w == "" {
			continue
		}
		if len(words) == 6 || size+len(w)+1 > 48 {
			break
		}
		words = append(words, w)
		size += len(w) + 1
	}
	name := strings.Join(words, " ")
	if CheckName(name) != nil {
		name = strings.TrimSpace("note " + name)
	}
	return name
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
