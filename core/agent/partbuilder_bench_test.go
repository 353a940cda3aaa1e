package agent

import (
	"testing"

	"pincer/core/message"
)

// BenchmarkPartBuilder10kDeltas folds one reply of 10,000 text deltas of 8
// bytes (80 KB) into its stored part, as a long streamed answer is.
func BenchmarkPartBuilder10kDeltas(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		var pb partBuilder
		for range 10_000 {
			pb.add(message.PartText, "w000042 ", "")
		}
		if got := len(pb.content()[0].Text); got != 80_000 {
			b.Fatalf("text is %d bytes", got)
		}
	}
}
