package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestInittraceLine(t *testing.T) {
	for _, c := range []struct {
		line string
		want string // "" when the line is not an init line
	}{
		{"init github.com/alecthomas/chroma/v2/lexers @96 ms, 161 ms clock, 2737120 bytes, 31433 allocs", "161"},
		{"init unicode @12 ms, 6.6 ms clock, 13280 bytes, 20 allocs", "6.6"},
		{"init runtime @0.010 ms, 0.021 ms clock, 0 bytes, 0 allocs", "0.021"},
		{"pincer dev", ""},
		{"gc 1 @0.003s 2%: 0.010+0.2+0.003 ms clock", ""},
	} {
		m := inittraceLine.FindStringSubmatch(c.line)
		got := ""
		if m != nil {
			got = m[1]
		}
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.line, got, c.want)
		}
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{10, 10, 1000}, 10},
	} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	if !math.IsNaN(median(nil)) {
		t.Error("median of nothing is not NaN")
	}
}

// TestGoals: a goal is met only when its ratio is within its limit, and one
// with a missing side is "not measured", never met.
func TestGoals(t *testing.T) {
	r := newResults()
	r.add("first_frame_ms", "new", 100)
	r.add("first_frame_ms", "base", 100)
	r.add("continue_2000_ms", "new", 140)
	r.add("continue_2000_ms", "crush", 300)
	r.add("continue_10000_ms", "new", 160)
	r.add("continue_10000_ms", "crush", 300)
	r.add("typing_bytes_per_char", "new", 300)
	r.add("typing_bytes_per_char", "crush", 100)
	r.add("daemon_idle_wakeups_per_s", "new", 10)
	r.add("idle_bytes_per_s", "new", 0)
	want := map[string]string{
		"--continue 2000 messages, ms: ≤ 1.5× a fresh start":         "met",
		"--continue 2000 messages, ms: ≤ 0.5× Crush's":               "met",
		"--continue 10000 messages, ms: ≤ 1.5× a fresh start":        "not met",
		"--continue 10000 messages, ms: ≤ 0.5× Crush's":              "not met",
		"bytes per typed character (idle main screen): ≤ 2× Crush's": "not met",
		"store daemon idle wake-ups per second: ≤ 10":                "met",
		"store daemon idle CPU, ms/s: ≤ 0.1× the baseline":           "missing",
		"no regression: first_frame_ms ≤ 1.1× the baseline":          "met",
		"no regression: idle redraws (bytes written while idle) = 0": "met",
	}
	for _, g := range r.goals([]int{2000, 10000}) {
		w, ok := want[g.Name]
		if !ok {
			continue
		}
		got := "not met"
		switch {
		case g.Missing:
			got = "missing"
		case g.Met:
			got = "met"
		}
		if got != w {
			t.Errorf("%s: %s (ratio %v), want %s", g.Name, got, g.Ratio, w)
		}
		delete(want, g.Name)
	}
	for name := range want {
		t.Errorf("no goal %q", name)
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/tmp/pincer-base":      "/tmp/pincer-base",
		"http://127.0.0.1:1/v1": "http://127.0.0.1:1/v1",
		"it's":                  `'it'\''s'`,
		"a b":                   "'a b'",
		"":                      "''",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestFakePacedStream: a tool-offering request naming the stream word gets
// the first piece, then the begin mark, the deltas, the end mark; a title
// request (no tools) gets a plain answer and no marks.
func TestFakePacedStream(t *testing.T) {
	f, err := startFake(5, time.Millisecond, time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	post := func(body string) (*http.Response, error) {
		return http.Post(f.URL+"/chat/completions", "application/json", strings.NewReader(body))
	}
	type result struct {
		texts []string
		err   error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := post(`{"stream":true,"tools":[{"type":"function"}],"messages":[{"role":"user","content":"please stream now"}]}`)
		if err != nil {
			done <- result{err: err}
			return
		}
		defer resp.Body.Close()
		var texts []string
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			line, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok || line == "[DONE]" {
				continue
			}
			var ch struct {
				Choices []struct {
					Delta struct{ Content string }
				}
			}
			_ = json.Unmarshal([]byte(line), &ch)
			if len(ch.Choices) > 0 && ch.Choices[0].Delta.Content != "" {
				texts = append(texts, ch.Choices[0].Delta.Content)
			}
		}
		done <- result{texts: texts}
	}()
	for _, end := range []bool{false, true} {
		select {
		case m := <-f.Marks:
			if m.End != end {
				t.Fatalf("mark End=%v, want %v", m.End, end)
			}
			close(m.Ack)
		case <-time.After(10 * time.Second):
			t.Fatalf("no mark (end=%v)", end)
		}
	}
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	want := []string{"Ready.\n\n", "w000000 ", "w000001 ", "w000002 ", "w000003 ", "w000004 "}
	if strings.Join(r.texts, "|") != strings.Join(want, "|") {
		t.Errorf("streamed %q, want %q", r.texts, want)
	}
	resp, err := post(`{"stream":false,"messages":[{"role":"user","content":"title for: please stream now"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	resp.Body.Close()
	if !strings.Contains(b.String(), `"chat.completion"`) {
		t.Errorf("title request got %s", b.String())
	}
	select {
	case m := <-f.Marks:
		t.Errorf("a title request made a mark %+v", m)
	case <-time.After(50 * time.Millisecond):
	}
}

// TestWriteJSONNotMeasured: goals with a missing side still write (as null).
func TestWriteJSONNotMeasured(t *testing.T) {
	r := newResults()
	r.add("first_frame_ms", "base", 100)
	p := t.TempDir() + "/out.json"
	if err := r.writeJSON(p, r.goals([]int{2000})); err != nil {
		t.Fatal(err)
	}
}

func TestSessionReady(t *testing.T) {
	a := &agent{Kind: kindPincer}
	for screen, want := range map[string]bool{
		" openai/m · default · 70e42799 · idle · ↑0 ↓0 tokens · ctx ?": true,
		" openai/m · default ·  · idle · ↑0 ↓0 tokens · ctx ?":         false,
		" openai/m · default · starting · idle":                        false,
	} {
		if got := a.sessionReady(screen); got != want {
			t.Errorf("sessionReady(%q) = %v, want %v", screen, got, want)
		}
	}
}
