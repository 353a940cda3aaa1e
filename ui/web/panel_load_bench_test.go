package web_test

// BenchmarkPanelOpen measures the web panel opening a long session in a real
// headless Chromium: the whole event log is served at once (as `pincer serve`
// sends a stored session's log), and the time is from opening the session
// (#s=ID) until its last assistant message is shown finished, its Markdown rendered; "max-gap-ms"
// is the longest time between two animation frames meanwhile (how long the
// page was frozen). Numbers: docs/BENCHMARKS.md "Issue 18".

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"pincer/ui/web"
	"pincer/ui/web/webtest"
)

// longLog is the SSE body of a session of turns turns, each a user input, a
// reply in deltas (chunk bytes each, deltas of them) completed with its
// Markdown text, and a Bash call with its output; it returns the body and
// the last message's id.
func longLog(turns, deltas, chunk int) ([]byte, string) {
	var b bytes.Buffer
	seq := 0
	emit := func(ev map[string]any) {
		seq++
		ev["sequence"] = seq
		ev["sessionId"] = "s1"
		data, _ := json.Marshal(ev)
		fmt.Fprintf(&b, "id: %d\nevent: %s\ndata: %s\n\n", seq, ev["type"], data)
	}
	b.WriteString("retry: 1000\n\n")
	emit(map[string]any{"type": "session.created", "cwd": "/tmp/x", "model": "fake/m"})
	line := "Some **bold** words, `code`, and a [link](https://example.com) in a line of the reply.\n"
	last := ""
	for t := 1; t <= turns; t++ {
		tid := fmt.Sprintf("t%d", t)
		mid := fmt.Sprintf("m%d", t)
		last = mid
		emit(map[string]any{"type": "turn.started", "turnId": tid, "input": fmt.Sprintf("question %d: what does this do?", t)})
		call := fmt.Sprintf("c%d", t)
		emit(map[string]any{"type": "tool.started", "turnId": tid, "toolCallId": call, "name": "Bash", "summary": "Bash: ls -la"})
		emit(map[string]any{"type": "tool.completed", "turnId": tid, "toolCallId": call, "name": "Bash", "summary": "Bash: ls -la", "durationMs": 12, "output": strings.Repeat("-rw-r--r-- 1 user user 1234 file.go\n", 10)})
		var text strings.Builder
		for d := 0; d < deltas; d++ {
			var part strings.Builder
			for part.Len() < chunk {
				part.WriteString(line)
			}
			if d%8 == 7 {
				part.WriteString("\n```go\nfunc main() { println(\"hi\") }\n```\n\n")
			}
			text.WriteString(part.String())
			emit(map[string]any{"type": "message.delta", "turnId": tid, "messageId": mid, "kind": "text", "delta": part.String()})
		}
		emit(map[string]any{"type": "message.completed", "turnId": tid, "messageId": mid, "role": "assistant", "text": text.String()})
		emit(map[string]any{"type": "usage", "turnId": tid, "inputTokens": 1000, "outputTokens": 200})
		emit(map[string]any{"type": "turn.completed", "turnId": tid})
	}
	return b.Bytes(), last
}

// logPanel serves the embedded panel and session s1 whose stream is body
// (then held open, as a live stream).
func logPanel(b testing.TB, body []byte) *httptest.Server {
	sub, err := fs.Sub(web.Static, "static")
	if err != nil {
		b.Fatal(err)
	}
	files := http.StripPrefix("/static/", http.FileServer(http.FS(sub)))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/":
			page, _ := fs.ReadFile(sub, "index.html")
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(page)
		case strings.HasPrefix(r.URL.Path, "/static/"):
			files.ServeHTTP(w, r)
		case r.URL.Path == "/api/sessions":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"sessions":[` + fakeSession + `]}`))
		case r.URL.Path == "/api/sessions/s1":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(fakeSession))
		case r.URL.Path == "/api/sessions/s1/events":
			w.Header().Set("Content-Type", "text/event-stream")
			if r.Header.Get("Last-Event-ID") == "" {
				w.Write(body)
			}
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		default:
			http.NotFound(w, r)
		}
	}))
	b.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv
}

// openTimed is the page's measurement: open #s=s1, then on every animation
// frame look for the finished message last; it resolves to {ms, gap}.
const openTimed = `new Promise((resolve) => {
  const t0 = performance.now();
  let prev = t0, gap = 0;
  location.hash = "#s=s1";
  const tick = () => {
    const now = performance.now();
    gap = Math.max(gap, now - prev);
    prev = now;
    const n = document.querySelector('#transcript [data-message-id="%s"]');
    if (n && !n.classList.contains("streaming") && n.querySelector(".body.md")) resolve({ ms: now - t0, gap });
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})`

func BenchmarkPanelOpen(b *testing.B) {
	for _, c := range []struct {
		name                 string
		turns, deltas, chunk int
	}{
		{"turns=120", 120, 24, 256},
		{"turns=195", 195, 24, 256},
		{"reply=430KB", 1, 300, 1430},
	} {
		b.Run(c.name, func(b *testing.B) {
			body, last := longLog(c.turns, c.deltas, c.chunk)
			ctx := webtest.Browser(b, 10*time.Minute)
			srv := logPanel(b, body)
			var ms, gap float64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				webtest.Navigate(ctx, b, srv.URL+"/")
				webtest.Eval[bool](ctx, b, `new Promise(r => { const f = () => document.getElementById("sessions").children.length ? r(true) : setTimeout(f, 20); f(); })`)
				res := webtest.Eval[struct{ Ms, Gap float64 }](ctx, b, fmt.Sprintf(openTimed, last))
				ms += res.Ms
				gap = max(gap, res.Gap)
			}
			b.ReportMetric(float64(len(body))/1e3, "KB-log")
			b.ReportMetric(ms/float64(b.N), "ms/open")
			b.ReportMetric(gap, "max-gap-ms")
			b.ReportMetric(0, "ns/op")
		})
	}
}
