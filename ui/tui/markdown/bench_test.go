package markdown

import (
	"fmt"
	"strings"
	"testing"

	"pincer/themes"
)

// goFence returns a markdown text around a fenced Go block of n lines.
func goFence(n int) string {
	var b strings.Builder
	b.WriteString("Here is the file:\n\n```go\npackage main\n\nimport \"fmt\"\n\n")
	for i := 0; b.Len() > 0 && strings.Count(b.String(), "\n") < n+3; i++ {
		fmt.Fprintf(&b, "// f%d returns a value.\nfunc f%d(x int) string {\n\treturn fmt.Sprintf(\"%%d: %%s\", x+%d, \"text\")\n}\n\n", i, i, i)
	}
	b.WriteString("```\n\nThat is all.\n")
	return b.String()
}

func BenchmarkRenderMarkdown(b *testing.B) {
	src := goFence(200)
	th := themes.Dark()
	Render(src, 100, th) // lexer lookup and regexp compilation happen once
	b.ResetTimer()
	for b.Loop() {
		Render(src, 100, th)
	}
}

func BenchmarkRenderMarkdownProse(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&sb, "## Section %d\n\nSome *emphasis*, **strong** and `code` in a paragraph that is long enough to wrap twice at eighty columns, with a [link](https://example.com).\n\n- item one\n- item two\n\n", i)
	}
	src := sb.String()
	th := themes.Dark()
	b.ResetTimer()
	for b.Loop() {
		Render(src, 80, th)
	}
}

func BenchmarkPlain(b *testing.B) {
	src := strings.Repeat("main.go:12: some output line with a few words in it\n", 200)
	st := themes.Dark().Style(themes.TokenText)
	for b.Loop() {
		Plain(src, 100, st)
	}
}

func BenchmarkRenderMarkdownUncached(b *testing.B) {
	// Every iteration re-runs chroma: the cost of the first rendering of a
	// code block (later renderings at any width hit the highlight cache).
	src := goFence(200)
	th := themes.Dark()
	Render(src, 100, th)
	b.ResetTimer()
	for b.Loop() {
		resetCaches(false)
		Render(src, 100, th)
	}
}

func BenchmarkFirstHighlight(b *testing.B) {
	// A fresh lexer lookup by fence tag (cached afterwards) plus tokenising
	// one line; chroma keeps the lexer's compiled rules once compiled.
	th := themes.Dark()
	src := "```rust\nfn main() {}\n```\n"
	for b.Loop() {
		resetCaches(true)
		Render(src, 80, th)
	}
}

// resetCaches empties the highlight cache (and the lexer cache).
func resetCaches(lexersToo bool) {
	hlMu.Lock()
	clear(hlCache)
	hlMu.Unlock()
	if lexersToo {
		lexMu.Lock()
		lexCache = nil
		lexMu.Unlock()
	}
}
