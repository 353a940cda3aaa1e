package badger

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/core/message"
)

// BenchmarkAppendEvent appends message.delta events of one session to a store on
// disk, as a streaming turn does.
func BenchmarkAppendEvent(b *testing.B) {
	s := openDisk(b, b.TempDir())
	ctx := context.Background()
	ev, err := event.New(event.MessageDelta, "s", "t",
		event.MessageDeltaData{MessageID: "0123456789abcdef", Delta: "a few words of text ", Kind: "text"})
	if err != nil {
		b.Fatal(err)
	}
	seq := uint64(0)
	b.ReportAllocs()
	for b.Loop() {
		seq++
		ev.Sequence, ev.Timestamp = seq, time.Now()
		if err := s.AppendEvent(ctx, ev); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListMessages10k lists a session of 10,000 messages from a store on disk:
// the cost of resuming a long session. The messages alternate user text, assistant
// text with a tool call, and tool results, about 1 KB each on average.
func BenchmarkListMessages10k(b *testing.B) {
	const n = 10_000
	s := openDisk(b, b.TempDir())
	ctx := context.Background()
	for i := range n {
		var m message.Message
		switch i % 3 {
		case 0:
			m = message.NewText(message.RoleUser, fmt.Sprintf("question %d: %s", i, strings.Repeat("why ", 50)))
		case 1:
			m = message.NewText(message.RoleAssistant, strings.Repeat("Let me look at the file. ", 20))
			m.Parts = append(m.Parts, message.Part{Type: message.PartToolCall, ToolCallID: fmt.Sprint("call", i),
				ToolName: "read", Input: `{"path":"core/agent/loop.go"}`})
			m.Usage = &message.Usage{InputTokens: 1200, OutputTokens: 80}
		default:
			m = message.NewToolResult(fmt.Sprint("call", i-1), "read", strings.Repeat("func f() {}\n", 150), false)
		}
		m.SessionID = "s"
		if _, err := s.AppendMessage(ctx, m); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		msgs, err := s.ListMessages(ctx, "s")
		if err != nil || len(msgs) != n {
			b.Fatalf("ListMessages = %d messages, %v", len(msgs), err)
		}
	}
}
