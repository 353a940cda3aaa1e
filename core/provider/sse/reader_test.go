package sse

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll drains r and returns its events and the error that ended it.
func readAll(r *Reader) ([]Event, error) {
	var out []Event
	for {
		ev, err := r.Next()
		if err != nil {
			return out, err
		}
		out = append(out, ev)
	}
}

func TestReader(t *testing.T) {
	msg := func(data string) Event { return Event{Type: DefaultType, Data: data} }
	tests := []struct {
		name string
		in   string
		want []Event
	}{
		{"empty input", "", nil},
		{"only blank lines", "\n\n\r\n\r\r", nil},
		{"one event LF", "data: hello\n\n", []Event{msg("hello")}},
		{"one event CRLF", "data: hello\r\n\r\n", []Event{msg("hello")}},
		{"one event CR", "data: hello\r\r", []Event{msg("hello")}},
		{"mixed terminators", "data: a\r\ndata: b\rdata: c\n\r\ndata: d\r\r", []Event{msg("a\nb\nc"), msg("d")}},
		{"no space after colon", "data:hello\n\n", []Event{msg("hello")}},
		{"only one space removed", "data:  two\n\n", []Event{msg(" two")}},
		{"tab is kept", "data:\tx\n\n", []Event{msg("\tx")}},
		{"multi-line data joined", "data: one\ndata: two\ndata: three\n\n", []Event{msg("one\ntwo\nthree")}},
		{"empty data line", "data\n\n", []Event{msg("")}},
		{"empty data lines joined", "data:\ndata:\n\n", []Event{msg("\n")}},
		{"comments ignored", ": OPENROUTER PROCESSING\n\n: ping\ndata: x\n: mid\n\n", []Event{msg("x")}},
		{"event type", "event: error\ndata: {}\n\n", []Event{{Type: "error", Data: "{}"}}},
		{"type resets between events", "event: a\ndata: 1\n\ndata: 2\n\n", []Event{{Type: "a", Data: "1"}, msg("2")}},
		{"last event type wins", "event: a\nevent: b\ndata: x\n\n", []Event{{Type: "b", Data: "x"}}},
		{"type without data is not dispatched", "event: ping\n\ndata: x\n\n", []Event{msg("x")}},
		{"id persists", "id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\n",
			[]Event{{Type: DefaultType, Data: "a", ID: "7"}, {Type: DefaultType, Data: "b", ID: "7"}, msg("c")}},
		{"id with NUL ignored", "id: 1\ndata: a\n\nid: 2\x003\ndata: b\n\n",
			[]Event{{Type: DefaultType, Data: "a", ID: "1"}, {Type: DefaultType, Data: "b", ID: "1"}}},
		{"retry and unknown fields ignored", "retry: 1000\nfoo: bar\ndata: x\n\n", []Event{msg("x")}},
		{"field name is case sensitive", "Data: x\ndata: y\n\n", []Event{msg("y")}},
		{"colon in value kept", "data: a:b: c\n\n", []Event{msg("a:b: c")}},
		{"final event without blank line", "data: a\n\ndata: [DONE]\n", []Event{msg("a"), msg("[DONE]")}},
		{"final line without terminator", "data: a\n\ndata: tail", []Event{msg("a"), msg("tail")}},
		{"final CR only", "data: a\r", []Event{msg("a")}},
		{"BOM skipped", "\xEF\xBB\xBFdata: x\n\n", []Event{msg("x")}},
		{"BOM only at start", "data: x\n\n\xEF\xBB\xBFdata: y\n\n", []Event{msg("x")}},
		{"partial BOM is data", "\xEF\xBBdata: x\n\n", nil},
		{"unicode kept", "data: héllo 😊\n\n", []Event{msg("héllo 😊")}},
		{"trailing blank lines", "data: x\n\n\n\n\n", []Event{msg("x")}},
		{"blank line of spaces is a field", "data: x\n \n\n", []Event{msg("x")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, mode := range []string{"whole", "one byte"} {
				var src io.Reader = strings.NewReader(tc.in)
				if mode == "one byte" {
					src = iotest.OneByteReader(src)
				}
				got, err := readAll(NewReader(src))
				if !errors.Is(err, io.EOF) {
					t.Fatalf("%s: err = %v, want io.EOF", mode, err)
				}
				if !reflect.DeepEqual(got, tc.want) {
					t.Errorf("%s: got %q, want %q", mode, got, tc.want)
				}
			}
		})
	}
}

func TestReaderHugeLine(t *testing.T) {
	big := strings.Repeat("x", 3<<20) // 3 MiB, far past bufio.Scanner's 64 KiB
	in := "data: " + big + "\n\ndata: after\n\n"
	got, err := readAll(NewReader(strings.NewReader(in)))
	if !errors.Is(err, io.EOF) {
		t.Fatalf("err = %v", err)
	}
	if len(got) != 2 || got[0].Data != big || got[1].Data != "after" {
		t.Fatalf("got %d events, first len %d", len(got), len(got[0].Data))
	}
}

func TestReaderCRLFSplitAcrossReads(t *testing.T) {
	// The CR ends one read and the LF starts the next: still one line terminator.
	r := NewReader(io.MultiReader(strings.NewReader("data: a\r"), strings.NewReader("\ndata: b\r"), strings.NewReader("\n\r\n")))
	got, err := readAll(r)
	if !errors.Is(err, io.EOF) {
		t.Fatalf("err = %v", err)
	}
	want := []Event{{Type: DefaultType, Data: "a\nb"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestReaderDispatchesWithoutWaitingForMoreInput(t *testing.T) {
	// A live stream: after "\n\n" the event must come out even though the writer has not
	// closed (a reader that peeks ahead past the blank line would block here).
	pr, pw := io.Pipe()
	r := NewReader(pr)
	go func() { _, _ = pw.Write([]byte("data: first\r\r")) }()
	ev, err := r.Next()
	if err != nil || ev.Data != "first" {
		t.Fatalf("Next = %q, %v", ev, err)
	}
	go func() {
		_, _ = pw.Write([]byte("\ndata: second\n\n"))
		_ = pw.Close()
	}()
	got, err := readAll(r)
	if !errors.Is(err, io.EOF) || len(got) != 1 || got[0].Data != "second" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestReaderPropagatesReadError(t *testing.T) {
	boom := errors.New("connection reset")
	r := NewReader(io.MultiReader(strings.NewReader("data: a\n\ndata: partial\n"), iotest.ErrReader(boom)))
	ev, err := r.Next()
	if err != nil || ev.Data != "a" {
		t.Fatalf("first = %q, %v", ev, err)
	}
	if _, err := r.Next(); !errors.Is(err, boom) {
		t.Fatalf("second err = %v, want %v", err, boom)
	}
}

func TestReaderEOFIsSticky(t *testing.T) {
	r := NewReader(strings.NewReader("data: a"))
	if ev, err := r.Next(); err != nil || ev.Data != "a" {
		t.Fatalf("first = %q, %v", ev, err)
	}
	for range 2 {
		if _, err := r.Next(); !errors.Is(err, io.EOF) {
			t.Fatalf("err = %v, want io.EOF", err)
		}
	}
}

func FuzzReader(f *testing.F) {
	seeds := []string{
		"",
		"data: hello\n\n",
		"data: a\r\ndata: b\r\r\n",
		": comment\nevent: error\nid: 1\ndata: {\"error\":{}}\n\n",
		"\xEF\xBB\xBFdata: x",
		"data\n\ndata:\ndata:\n\nid: \x00\n\nretry: 5\n",
		"data: [DONE]\n",
		"\r\r\r\n\n\r",
		": OPENROUTER PROCESSING\n\ndata: {\"choices\":[]}\n\n",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		whole, errWhole := readAll(NewReader(strings.NewReader(in)))
		bytewise, errBytes := readAll(NewReader(iotest.OneByteReader(strings.NewReader(in))))
		if !errors.Is(errWhole, io.EOF) || !errors.Is(errBytes, io.EOF) {
			t.Fatalf("errors: %v, %v", errWhole, errBytes)
		}
		if !reflect.DeepEqual(whole, bytewise) {
			t.Fatalf("chunking changed the result:\nwhole    %q\nbytewise %q", whole, bytewise)
		}
		for _, ev := range whole {
			if strings.ContainsAny(ev.Type, "\r\n") || strings.ContainsAny(ev.ID, "\r\n\x00") || strings.Contains(ev.Data, "\r") {
				t.Fatalf("line terminator leaked into %q", ev)
			}
			if ev.Type == "" {
				t.Fatalf("empty type in %q", ev)
			}
		}
	})
}
