package tools

import (
	"strings"
	"testing"
)

// BenchmarkSafeOutput is SafeOutput of 1 MB of mixed command output: plain
// lines, colours, a progress bar's CRs, a NUL run, bidi overrides, CJK and
// a stray invalid byte in every 4 KB block.
func BenchmarkSafeOutput(b *testing.B) {
	block := strings.Repeat("ok   pincer/tools 0.123s\n", 60) +
		"\x1b[1;32mPASS\x1b[0m 10%\r20%\r\n" + strings.Repeat("\x00", 64) +
		"name\u202Etxt.exe 世界 🎉\xff\n"
	var sb strings.Builder
	for sb.Len() < 1<<20 {
		sb.WriteString(block)
	}
	s := sb.String()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		SafeOutput(s)
	}
}

// BenchmarkReadCapped is one Read of a 5 MB file with limit 100000 lines:
// the result stops at the result cap (ReadResultCap of a 200k-token window)
// and names the offset to go on from.
func BenchmarkReadCapped(b *testing.B) {
	env, root := newTestEnv(b)
	env.ContextWindow = 200_000
	line := strings.Repeat("x", 99) + "\n"
	writeTestFile(b, root, "big.txt", strings.Repeat(line, 5<<20/len(line)))
	in := mustJSON(b, ReadInput{FilePath: "big.txt", Limit: 100000})
	for b.Loop() {
		res, err := Typed(Read{}).Run(b.Context(), env, in)
		if err != nil || len(res.Output) > ReadResultCap(env.ContextWindow)+4096 {
			b.Fatalf("err %v, %d bytes", err, len(res.Output))
		}
	}
}
