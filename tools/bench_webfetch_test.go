package tools

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkWebFetchConvert1MB is WebFetch's conversion of a 1 MB HTML page
// (readability extraction, then HTML to Markdown).
func BenchmarkWebFetchConvert1MB(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("<html><head><title>Big page</title></head><body><nav><a href='/'>Home</a></nav><article><h1>Big page</h1>")
	for i := 0; sb.Len() < 1<<20; i++ {
		fmt.Fprintf(&sb, "<h2>Section %d</h2><p>Paragraph %d with <a href='/p/%d'>a link</a>, <code>code()</code> and <em>emphasis</em>, long enough to count as content for the extraction.</p><ul><li>one</li><li>two</li></ul>", i, i, i)
	}
	sb.WriteString("</article></body></html>")
	page := []byte(sb.String())
	b.SetBytes(int64(len(page)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		md, err := htmlMarkdown(page, "https://example.com/big")
		if err != nil || len(md) < 1000 {
			b.Fatal(err, len(md))
		}
	}
}
