package memory

import (
	"regexp"
	"strings"
)

// MaxPreferenceLen caps the sentence Preference proposes (bytes): a longer
// one is a task description, not a preference.
const MaxPreferenceLen = 240

// preferencePatterns are sentences of a prompt that state a lasting
// preference or correct how pincer works (the post-turn observer's
// heuristic): "from now on …", "going forward …", "in the future …",
// "always …", "never …", "I/we prefer …", "I/we always|never …",
// "stop …ing", "no, use X instead". Each is decided on the sentence as
// typed, at its start.
var preferencePatterns = []*regexp.Regexp{
	regexp.MustCompile(`(?i)^(?:from now on|going forward|in the future|in future)\b[,:]?\s*(.+)$`),
	regexp.MustCompile(`(?i)^(?:please\s+)?(?:always|never)\s+.+$`),
	regexp.MustCompile(`(?i)^(?:i|we)\s+(?:always|never|prefer|like to|want you to always|want you to never)\s+.+$`),
	regexp.MustCompile(`(?i)^(?:please\s+)?stop\s+\w+ing\b.+$`),
	regexp.MustCompile(`(?i)^(?:no|nope|actually)[,.!]?\s+(.*\b(?:instead|rather than)\b.*)$`),
}

// Preference reports whether a prompt states a lasting preference or a
// correction (preferencePatterns, on each sentence or line of input) and
// returns the first such sentence, as what to remember. A prompt that is an
// explicit request (Request) is not a preference: it is proposed as one.
func Preference(input string) (string, bool) {
	if _, ok := Request(input); ok {
		return "", false
	}
	for _, s := range sentences(input) {
		if len(s) > MaxPreferenceLen || notPreference.MatchString(s) {
			continue
		}
		for _, re := range preferencePatterns {
			m := re.FindStringSubmatch(s)
			if m == nil {
				continue
			}
			text := strings.TrimSpace(m[len(m)-1])
			if len(m) == 1 {
				text = s
			}
			if len(strings.Fields(text)) >= 2 {
				return text, true
			}
		}
	}
	return "", false
}

// notPreference are sentences the patterns would take that state nothing
// lasting: "never mind …", "always the same error", "no, instead of that, …"
// about the task at hand is left to the person.
var notPreference = regexp.MustCompile(`(?i)^(?:never\s*mind|nevermind|always\s+the\s+same|never\s+again\s+this)\b`)

// sentenceEnd splits a prompt into sentences: at a line break, or at '.',
// '!' or '?' followed by a space.
var sentenceEnd = regexp.MustCompile(`[.!?]\s+|\n+`)

// sentences are input's sentences, trimmed, empty ones left out.
func sentences(input string) []string {
	var out []string
	for _, s := range sentenceEnd.Split(input, -1) {
		if s = strings.TrimRight(strings.TrimSpace(s), ".!?"); s != "" {
			out = append(out, s)
		}
	}
	return out
}
