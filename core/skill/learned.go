package skill

import (
	"fmt"
	"strings"
)

// Learned is where a learned skill came from: the session and the turn (from
// 1) whose trajectory it was drafted from (SKILL.md frontmatter
// `source: {session: ID, turn: N}`, the shape of a memory file's source). It
// is a label for people (/skills marks such skills): it grants nothing and
// changes no precedence.
type Learned struct {
	Session string
	Turn    int
}

// String is "session ID, turn N" ("session ID" when the turn is unknown).
func (l *Learned) String() string {
	if l == nil {
		return ""
	}
	if l.Turn <= 0 {
		return "session " + l.Session
	}
	return fmt.Sprintf("session %s, turn %d", l.Session, l.Turn)
}

// learnedFrom reads a frontmatter's `source:` value: a mapping with a
// non-empty string session is a learned skill's (turn a number, else 0);
// anything else (absent, a string, a list: some other tool's key) is none,
// and the file still loads.
func learnedFrom(v any) *Learned {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	session, _ := m["session"].(string)
	if strings.TrimSpace(session) == "" {
		return nil
	}
	turn, _ := m["turn"].(int)
	return &Learned{Session: strings.TrimSpace(session), Turn: max(turn, 0)}
}
