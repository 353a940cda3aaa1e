package tools

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkEditPreview1MB is one Edit Preview on a 1 MB file (about 25,000
// lines of CRLF text) changing one line in the middle: read through the
// workspace, match, and diff, as the agent does before asking.
func BenchmarkEditPreview1MB(b *testing.B) {
	env, root := newTestEnv(b)
	var sb strings.Builder
	for i := 0; sb.Len() < 1<<20; i++ {
		fmt.Fprintf(&sb, "line %06d of the one-megabyte benchmark file\r\n", i)
	}
	writeTestFile(b, root, "big.txt", sb.String())
	readFirst(b, env, "big.txt")
	in := mustJSON(b, EditInput{FilePath: "big.txt", OldString: "line 012000 of", NewString: "LINE 12000 of"})
	b.SetBytes(int64(sb.Len()))
	b.ResetTimer()
	for b.Loop() {
		diff, err := Typed(Edit{}).(Previewer).Preview(env, in)
		if err != nil || diff == "" {
			b.Fatalf("diff %q, err %v", diff, err)
		}
	}
}
