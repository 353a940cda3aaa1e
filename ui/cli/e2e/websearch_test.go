package e2e

// WebSearch through `pincer run`: offered only with a [web] search backend; a
// local SearXNG-compatible fake answers; the per-session cap holds.

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

func TestWebSearchRun(t *testing.T) {
	var queries []string
	searx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		queries = append(queries, r.URL.Query().Get("q"))
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"results":[{"title":"Widget 2.0 released","url":"https://widgets.example/news/2","content":"Widget 2.0 is out"},
{"title":"Other","url":"https://other.example/","content":"x"}]}`)
	}))
	defer searx.Close()
	e := newEnv(t,
		openaitest.Reply{ToolCalls: []openaitest.Call{
			{ID: "s1", Name: "WebSearch", Args: `{"query":"widget release","allowed_domains":["widgets.example"]}`},
		}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "s2", Name: "WebSearch", Args: `{"query":"again"}`}}},
		openaitest.Reply{Text: "done"},
	)
	cfg := fmt.Sprintf("[web]\nsearch_backend = \"searxng\"\nsearch_url = %q\nsearch_max_uses = 1\n", searx.URL)
	if err := os.WriteFile(filepath.Join(e.home, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := e.run(e.runArgs("--output-format", "stream-json", "--allowed-tools", "WebSearch", "what is new with widgets?")...)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	parseStream(t, out)
	if !strings.Contains(out, "1. [Widget 2.0 released](https://widgets.example/news/2)") || strings.Contains(out, "other.example") {
		t.Errorf("search results:\n%s", out)
	}
	if !strings.Contains(out, "used its 1 searches") || len(queries) != 1 || queries[0] != "widget release" {
		t.Errorf("the cap did not hold (queries %q):\n%s", queries, out)
	}
	if names := strings.Join(offeredTools(e.fake.Requests()[0]), " "); !strings.Contains(names, "WebSearch") || !strings.Contains(names, "WebFetch") {
		t.Errorf("offered tools: %s", names)
	}

	// Without a backend, WebSearch is not offered at all.
	if err := os.Remove(filepath.Join(e.home, "config.toml")); err != nil {
		t.Fatal(err)
	}
	e.fake.Push(openaitest.Reply{Text: "ok"})
	n := len(e.fake.Requests())
	if _, stderr, code := e.run(e.runArgs("hi")...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if names := strings.Join(offeredTools(e.fake.Requests()[n]), " "); strings.Contains(names, "WebSearch") || !strings.Contains(names, "WebFetch") {
		t.Errorf("offered without a backend: %s", names)
	}
}
