package badger

import (
	"context"
	"errors"
	"strings"
	"testing"

	"pincer/core/message"
)

// TestOversizedValueErrorIsShort checks that Badger's size errors, which embed a hex
// dump of the value, never reach the caller raw.
func TestOversizedValueErrorIsShort(t *testing.T) {
	for _, disk := range []bool{false, true} {
		h := harness(disk)
		t.Run(h.Name, func(t *testing.T) {
			s := h.Open(t).(*Store)
			size := valueLogFileSize + 1
			if s.Dir() == "" {
				size = valueThresholdInMemory + 1
			}
			m := message.NewText(message.RoleTool, strings.Repeat("x", size))
			m.SessionID = "s"
			_, err := s.AppendMessage(context.Background(), m)
			if err == nil {
				t.Fatal("oversized message stored")
			}
			if msg := err.Error(); len(msg) > 200 || strings.Contains(msg, "\n") {
				t.Fatalf("error is not one short line: %.300q", msg)
			}
			// The sequence was not consumed.
			m = message.NewText(message.RoleUser, "small")
			m.SessionID = "s"
			if m, err = s.AppendMessage(context.Background(), m); err != nil || m.Seq != 1 {
				t.Fatalf("AppendMessage after failure = %d, %v", m.Seq, err)
			}
		})
	}
}

func TestShortMessage(t *testing.T) {
	err := errors.New("Value with size 99 exceeded 10 limit. Value:\n00000000  78 78 78  |xxx|\n")
	if got := shortMessage(err); got != "Value with size 99 exceeded 10 limit. Value" {
		t.Fatalf("shortMessage = %q", got)
	}
	long := errors.New(strings.Repeat("y", 500))
	if got := shortMessage(long); len(got) > maxErrLen+len("…") {
		t.Fatalf("shortMessage kept %d bytes", len(got))
	}
}
