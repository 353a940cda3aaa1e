package agent

import (
	"context"
	"errors"
	"strings"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/core/provider"
)

// sideText makes one model call of the turn outside its conversation (a
// compaction's summary, an observer's Ask) and returns the answer's text:
// the text deltas joined; reasoning and tool calls are ignored. Its usage is
// priced and counted in the turn's and reported as usage.reported (on bg,
// which outlives a cancelled ctx). A reply without text is an error that
// says "the model returned an empty " + what.
func (t *turn) sideText(ctx, bg context.Context, p provider.Provider, req provider.Request, what string) (string, error) {
	var text strings.Builder
	var usage message.Usage
	for ev, err := range p.Stream(ctx, req) {
		if err != nil {
			return "", err
		}
		switch ev.Type {
		case provider.EventTextDelta:
			text.WriteString(ev.Text)
		case provider.EventUsage:
			mergeUsage(&usage, ev.Usage)
		}
	}
	if usage != (message.Usage{}) {
		t.price(&usage)
		t.usage.Add(usage)
		_ = t.emit(bg, event.UsageReported, usageData(usage, t.a.cfg.ContextWindow))
	}
	if strings.TrimSpace(text.String()) == "" {
		return "", errors.New("the model returned an empty " + what)
	}
	return text.String(), nil
}
