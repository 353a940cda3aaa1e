package transcript

import (
	"fmt"
	"strings"
	"testing"
)

func TestOnlyVisibleRowsDrawn(t *testing.T) {
	v := bigView(t) // 2,000 blocks, ~100k lines
	s := newScreen(t, 200, 50)
	drawView(v, s)
	if v.rowsDrawn != 50 {
		t.Fatalf("drew %d rows", v.rowsDrawn)
	}
	if v.renders > 3 {
		t.Fatalf("rendered %d of %d blocks for one screen", v.renders, v.Len())
	}
	// Scroll to the middle: only the blocks there are rendered.
	v.Follow(false)
	v.mu.Lock()
	v.top, v.topRow = 1000, 0
	v.mu.Unlock()
	before := v.renders
	drawView(v, s)
	if n := v.renders - before; n < 1 || n > 3 {
		t.Fatalf("scrolling rendered %d blocks", n)
	}
	if v.rowsDrawn != 50 {
		t.Fatalf("drew %d rows", v.rowsDrawn)
	}
}

func TestFrozenBlocksNotRerendered(t *testing.T) {
	v := New(dark())
	v.Upsert(Block{ID: "done", Kind: KindAssistant, Text: "# Done\n\nfinished text", Done: true})
	v.Upsert(Block{ID: "live", Kind: KindAssistant, Text: "streaming"})
	s := newScreen(t, 40, 20)
	for i := 0; i < 10; i++ {
		v.AppendText("live", " more")
		v.Upsert(Block{ID: fmt.Sprint("n", i), Kind: KindNotice, Text: "note", Done: true})
		drawView(v, s)
	}
	e := v.entries[0]
	if e.renders != 1 {
		t.Fatalf("frozen block rendered %d times", e.renders)
	}
	// A new width renders it once more; going back to the old width hits the
	// second cache slot.
	s.SetSize(30, 20)
	drawView(v, s)
	drawView(v, s)
	s.SetSize(40, 20)
	drawView(v, s)
	if e.renders != 2 {
		t.Fatalf("after two widths: %d renders", e.renders)
	}
	// Collapse state changes re-render nothing.
	v.Upsert(Block{ID: "t", Kind: KindTool, Title: "Read x", Status: StatusDone, Text: "out", Done: true, Collapsed: true})
	drawView(v, s)
	tool := v.entries[len(v.entries)-1]
	v.Toggle("t")
	drawView(v, s)
	v.Toggle("t")
	drawView(v, s)
	if tool.renders != 1 {
		t.Fatalf("toggling re-rendered: %d", tool.renders)
	}
	// Upserting the identical block changes nothing.
	v.Upsert(v.entries[0].b)
	drawView(v, s)
	if e.renders != 2 {
		t.Fatal("identical upsert re-rendered")
	}
}

func TestStreamingMatchesWhole(t *testing.T) {
	text := "# Title\n\nFirst paragraph with some words.\n\n- a\n- b\n\n```go\nfunc f() {\n\treturn\n}\n```\n\nLast *paragraph* here, with 中文 and 🦀.\n"
	for _, kind := range []Kind{KindAssistant, KindUser, KindReasoning} {
		streamed := New(dark())
		streamed.Upsert(Block{ID: "m", Kind: kind})
		whole := New(dark())
		s1, s2 := newScreen(t, 30, 40), newScreen(t, 30, 40)
		for i := 0; i < len(text); {
			n := min(len(text)-i, 1+i%5)
			for n < len(text)-i && !validUTF8Boundary(text, i+n) {
				n++
			}
			streamed.AppendText("m", text[i:i+n])
			i += n
			drawView(streamed, s1)
			whole.Upsert(Block{ID: "m", Kind: kind, Text: text[:i]})
			whole.entries[0].invalidate()
			drawView(whole, s2)
			if a, b := screenText(s1), screenText(s2); a != b {
				t.Fatalf("%v after %d bytes:\n%s\n---\n%s", kind, i, a, b)
			}
		}
		// Finishing gives the same picture.
		streamed.Upsert(Block{ID: "m", Kind: kind, Text: text, Done: true})
		drawView(streamed, s1)
		if screenText(s1) != screenText(s2) {
			t.Fatalf("%v: done differs", kind)
		}
	}
}

func validUTF8Boundary(s string, i int) bool { return i >= len(s) || s[i]&0xc0 != 0x80 }

func TestAppendOnlyRerendersTail(t *testing.T) {
	v := New(dark())
	var b strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "Paragraph %d.\n\n", i)
	}
	v.Upsert(Block{ID: "m", Kind: KindAssistant, Text: b.String()})
	s := newScreen(t, 40, 10)
	drawView(v, s)
	e := v.entries[0]
	stable := len(e.stable)
	if stable < 500 {
		t.Fatalf("stable part: %d lines", stable)
	}
	v.AppendText("m", "tail words")
	drawView(v, s)
	// The tail is the last complete paragraph plus the growing line.
	if len(e.stable) != stable || len(e.cache[0].tail) != 3 {
		t.Fatalf("stable %d -> %d, tail %d", stable, len(e.stable), len(e.cache[0].tail))
	}
	if rows(s)[9] != "  tail words" {
		t.Fatalf("last row %q", rows(s)[9])
	}
}

func TestUpsertReplacesInPlace(t *testing.T) {
	v := numbered(3)
	v.Upsert(Block{ID: "1", Kind: KindUser, Text: "replaced", Done: true})
	if v.Len() != 3 {
		t.Fatalf("len %d", v.Len())
	}
	s := newScreen(t, 30, 10)
	drawView(v, s)
	if findRow(s, "replaced") != 2 {
		t.Fatalf("screen:\n%s", screenText(s))
	}
	v.AppendText("nope", "x") // unknown IDs are ignored
	v.Clear()
	if v.Len() != 0 {
		t.Fatal("Clear")
	}
}
