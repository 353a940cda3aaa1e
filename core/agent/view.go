package agent

import (
	"strings"

	"pincer/core/message"
	"pincer/core/prompt"
)

// buildView returns the provider view of a stored transcript (invariant 3: the
// stored messages are never changed, only the view):
//   - the stored system message, its dynamic part (after prompt.DynamicMarker)
//     replaced by dynamic when dynamic is not empty — the static part stays
//     byte-identical, so provider prompt caches keep hitting;
//   - when the transcript holds compaction records, the newest one's summary (with
//     the project instructions re-read from disk, instructions) as a user message,
//     followed by the messages from its boundary on;
//   - repaired (RepairView) so every tool call has exactly one result.
func buildView(msgs []message.Message, dynamic, instructions string) []message.Message {
	var system *message.Message
	last := -1
	for i := range msgs {
		if msgs[i].Role == message.RoleSystem && system == nil {
			system = &msgs[i]
		}
		if msgs[i].Role == message.RoleCompaction {
			last = i
		}
	}
	var out []message.Message
	if system != nil {
		out = append(out, withDynamic(*system, dynamic))
	}
	if last < 0 {
		for _, m := range msgs {
			if m.Role != message.RoleSystem && m.Role != message.RoleCompaction {
				out = append(out, m)
			}
		}
		return RepairView(out)
	}
	comp := msgs[last]
	out = append(out, summaryMessage(comp, instructions))
	for _, m := range msgs {
		if m.Seq >= comp.Compaction.BoundarySeq && m.Role != message.RoleSystem && m.Role != message.RoleCompaction {
			out = append(out, m)
		}
	}
	return RepairView(out)
}

// withDynamic returns the system message with its dynamic part replaced.
func withDynamic(sys message.Message, dynamic string) message.Message {
	if dynamic == "" {
		return sys
	}
	static, _, _ := prompt.Split(sys.Text()) // no marker: all of it is static
	sys.Parts = []message.Part{{Type: message.PartText, Text: static + "\n" + prompt.DynamicMarker + "\n" + dynamic}}
	return sys
}

// summaryMessage is the user message that stands for the compacted history.
func summaryMessage(comp message.Message, instructions string) message.Message {
	var b strings.Builder
	b.WriteString("<system-reminder>\nThe earlier part of this conversation was compacted to save context. ")
	b.WriteString("Its summary follows; continue from it (the recent messages after it are verbatim).\n\n")
	b.WriteString(comp.Text())
	if strings.TrimSpace(instructions) != "" {
		b.WriteString("\n\nProject instructions (re-read from disk):\n")
		b.WriteString(instructions)
	}
	b.WriteString("\n</system-reminder>")
	m := message.NewText(message.RoleUser, b.String())
	m.SessionID, m.Seq = comp.SessionID, comp.Seq
	return m
}

// EstimateTokens estimates the tokens of a view: about four bytes a token for text,
// plus a small overhead per message and per part. It is corrected by the ratio of
// the provider's reported input tokens to this estimate (see turn.correction).
func EstimateTokens(msgs []message.Message) int64 {
	var n int64
	for _, m := range msgs {
		n += 4
		for _, p := range m.Parts {
			n += 3 + int64(len(p.Text)+len(p.Input)+len(p.ToolName)+len(p.Signature)+len(p.Raw))/4
		}
	}
	return n
}

// compactionBoundary chooses where a compaction of msgs[from:] cuts: the index of
// the first message kept verbatim. The kept tail is the longest that fits keep
// tokens; the cut is always before a non-tool message (a user message or an
// assistant message), so a tool call and its results stay on one side. It reports
// false when there is nothing worth summarising (fewer than two messages before the
// cut).
func compactionBoundary(msgs []message.Message, from int, keep int64) (int, bool) {
	best := -1
	var tail int64
	for i := len(msgs) - 1; i > from; i-- {
		tail += EstimateTokens(msgs[i : i+1])
		if msgs[i].Role == message.RoleTool || msgs[i].Role == message.RoleSystem || msgs[i].Role == message.RoleCompaction {
			continue
		}
		if tail > keep && best >= 0 {
			break
		}
		best = i
	}
	if best < 0 {
		// Even the last round is bigger than keep: cut before it anyway.
		for i := len(msgs) - 1; i > from; i-- {
			if msgs[i].Role != message.RoleTool {
				best = i
				break
			}
		}
	}
	if best-from < 2 {
		return 0, false
	}
	return best, true
}
