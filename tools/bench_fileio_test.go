package tools

import (
	"fmt"
	"testing"
)

// BenchmarkReadTool is one Read call of a 200-line file two directories deep.
func BenchmarkReadTool(b *testing.B) {
	env, root := newTestEnv(b)
	content := ""
	for i := range 200 {
		content += fmt.Sprintf("line %d of the benchmark file\n", i)
	}
	writeTestFile(b, root, "a/b/f.txt", content)
	in := mustJSON(b, ReadInput{FilePath: "a/b/f.txt"})
	b.ResetTimer()
	for b.Loop() {
		if _, err := (Read{}).Run(b.Context(), env, in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteTool is one Write call replacing a 200-line file two
// directories deep (read before, so the read-before-write rule holds).
func BenchmarkWriteTool(b *testing.B) {
	env, root := newTestEnv(b)
	content := ""
	for i := range 200 {
		content += fmt.Sprintf("line %d of the benchmark file\n", i)
	}
	writeTestFile(b, root, "a/b/f.txt", content)
	readFirst(b, env, "a/b/f.txt")
	in := mustJSON(b, WriteInput{FilePath: "a/b/f.txt", Content: content})
	b.ResetTimer()
	for b.Loop() {
		if _, err := (Write{}).Run(b.Context(), env, in); err != nil {
			b.Fatal(err)
		}
	}
}
