package transcript

import (
	"fmt"
	"strings"
	"testing"
)

// bigView returns a view holding about 100,000 rendered lines at width 200:
// 2,000 blocks (user messages, assistant markdown, tool calls) of ~50 lines.
func bigView(tb testing.TB) *View {
	v := New(dark())
	var md strings.Builder
	for k := 0; k < 46; k++ {
		fmt.Fprintf(&md, "- item %d with **bold** and `code` text\n", k)
	}
	body := md.String()
	var out strings.Builder
	for k := 0; k < 48; k++ {
		fmt.Fprintf(&out, "main.go:%d: some output line\n", k)
	}
	tool := out.String()
	for i := 0; i < 1000; i++ {
		v.Upsert(Block{ID: fmt.Sprintf("a%d", i), Kind: KindAssistant, Text: "## Step\n\n" + body, Done: true})
		v.Upsert(Block{ID: fmt.Sprintf("t%d", i), Kind: KindTool, Title: "Bash go test", Status: StatusDone, Text: tool, Done: true})
	}
	return v
}

func BenchmarkDrawVisible(b *testing.B) {
	v := bigView(b)
	s := newScreen(b, 200, 50)
	v.SetRect(0, 0, 200, 50)
	v.Draw(s)
	b.ResetTimer()
	for b.Loop() {
		v.Draw(s)
	}
	b.ReportMetric(float64(v.rowsDrawn), "rows/frame")
}

func BenchmarkDrawVisibleBordered(b *testing.B) {
	v := bigView(b)
	v.SetBorder(true).SetTitle(" Transcript ")
	s := newScreen(b, 200, 50)
	v.SetRect(0, 0, 200, 50)
	v.Draw(s)
	b.ResetTimer()
	for b.Loop() {
		v.Draw(s)
	}
}

func BenchmarkDrawVisibleScrolled(b *testing.B) {
	v := bigView(b)
	s := newScreen(b, 200, 50)
	v.SetRect(0, 0, 200, 50)
	v.Draw(s)
	v.mu.Lock()
	v.follow, v.top, v.topRow = false, 1000, 3
	v.mu.Unlock()
	v.Draw(s)
	b.ResetTimer()
	for b.Loop() {
		v.Draw(s)
	}
}

func BenchmarkResize(b *testing.B) {
	v := bigView(b)
	s := newScreen(b, 200, 50)
	v.SetRect(0, 0, 200, 50)
	v.Draw(s)
	i := 0
	b.ResetTimer()
	for b.Loop() {
		i++
		v.SetRect(0, 0, 120+i%80, 50) // a new width every time: no cache hit
		v.Draw(s)
	}
}

func BenchmarkResizeScrolled(b *testing.B) {
	v := bigView(b)
	s := newScreen(b, 200, 50)
	v.SetRect(0, 0, 200, 50)
	v.Draw(s)
	v.mu.Lock()
	v.follow, v.top, v.topRow = false, 1000, 30 // assistant markdown above a tool block
	v.mu.Unlock()
	i, r0 := 0, v.renders
	b.ResetTimer()
	for b.Loop() {
		i++
		v.SetRect(0, 0, 120+i%80, 50)
		v.Draw(s)
	}
	b.ReportMetric(float64(v.renders-r0)/float64(i), "renders/op")
}

func BenchmarkAppendDelta(b *testing.B) {
	v := bigView(b)
	var long strings.Builder
	for k := 0; k < 500; k++ {
		fmt.Fprintf(&long, "Paragraph %d talks about the code at some length, so that it wraps over a few lines of the pane.\n\n", k)
	}
	v.Upsert(Block{ID: "last", Kind: KindAssistant, Text: long.String()})
	s := newScreen(b, 200, 50)
	v.SetRect(0, 0, 200, 50)
	v.Draw(s)
	i := 0
	b.ResetTimer()
	for b.Loop() {
		i++
		d := " token"
		if i%40 == 0 {
			d = ".\n\nNext"
		}
		v.AppendText("last", d)
		v.Draw(s)
	}
}

func BenchmarkAppendDeltaNoDraw(b *testing.B) {
	v := bigView(b)
	v.Upsert(Block{ID: "last", Kind: KindAssistant, Text: strings.Repeat("Paragraph of text.\n\n", 2000)})
	s := newScreen(b, 200, 50)
	v.SetRect(0, 0, 200, 50)
	v.Draw(s)
	b.ResetTimer()
	for b.Loop() {
		v.AppendText("last", " token")
	}
}
