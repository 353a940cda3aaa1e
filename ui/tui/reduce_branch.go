package tui

import (
	"fmt"

	"pincer/core/event"
	"pincer/ui/tui/transcript"
)

// sessionRewound folds a session.rewound event: in the branch a
// conversation rewind started (d.Branch is the event's session) it is the
// line between the turns copied from the origin, above, and the branch's
// own; in the rewound session itself the rewind's rows (the approvals and
// the timeline) already show it.
func (m *Model) sessionRewound(ev event.Event, d event.SessionRewoundData) {
	if d.Branch == "" || d.Branch != ev.SessionID {
		return
	}
	text := fmt.Sprintf("⎇ branch of %s before turn %d: the turns above are copied from it (it stays as it was); this branch continues from here", m.Status.BranchOf, d.Turn)
	m.upsertBlock(transcript.Block{ID: eventBlockID(ev), Kind: transcript.KindNotice, Done: true, Text: text})
}
