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
		if _, err := Typed(Read{}).Run(b.Context(), env, in); err != nil {
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
		if _, err := Typed(Write{}).Run(b.Context(), env, in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGrepContent is one Grep call in content mode over 300 files of 200
// lines, 30 of which match, per backend (ripgrep when installed).
func BenchmarkGrepContent(b *testing.B) {
	env, root := newTestEnv(b)
	for i := range 300 {
		content := ""
		for j := range 200 {
			content += fmt.Sprintf("line %d of file %d\n", j, i)
		}
		if i%10 == 0 {
			content += "the needle is here\n"
		}
		writeTestFile(b, root, fmt.Sprintf("d%d/f%d.txt", i%10, i), content)
	}
	backends := map[string]Grep{"fallback": {Backend: GrepFallback}}
	if ripgrepPath() != "" {
		backends["ripgrep"] = Grep{Backend: GrepRipgrep}
	}
	in := mustJSON(b, GrepInput{Pattern: "needle", OutputMode: GrepContent})
	for name, g := range backends {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Typed(g).Run(b.Context(), env, in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
