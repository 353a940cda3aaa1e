package e2e

// WebFetch through `pincer run`: the scripted model fetches a page of a local
// server that a user rule names (WebFetch(domain:127.0.0.1)), the [web]
// fetch_model (the same fake, another provider name) answers the prompt over
// the Markdown, and the fetches the guard refuses never reach the server.

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

func TestWebFetchRun(t *testing.T) {
	var hits, markerHits atomic.Int64
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/secret" {
			markerHits.Add(1)
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><title>Widget docs</title></head><body><article><h1>Widget docs</h1>
<p>Widgets are configured with <code>widget.toml</code>; the default port is 4242. This paragraph is long enough for the readability extraction to keep it as the main content of the page.</p></article></body></html>`)
	}))
	defer page.Close()
	port := page.URL[strings.LastIndex(page.URL, ":")+1:]
	e := newEnv(t,
		openaitest.Reply{When: "Web page content", Text: "The default port is 4242."},
		openaitest.Reply{ToolCalls: []openaitest.Call{
			{ID: "w1", Name: "WebFetch", Args: fmt.Sprintf(`{"url":%q,"prompt":"what is the default port?"}`, page.URL+"/docs")},
			{ID: "w2", Name: "WebFetch", Args: fmt.Sprintf(`{"url":"http://localhost:%s/secret","prompt":"p"}`, port)},
			{ID: "w3", Name: "WebFetch", Args: fmt.Sprintf(`{"url":"http://2130706433:%s/secret","prompt":"p"}`, port)},
			{ID: "w4", Name: "WebFetch", Args: fmt.Sprintf(`{"url":"http://[::ffff:127.0.0.1]:%s/secret","prompt":"p"}`, port)},
			{ID: "w5", Name: "WebFetch", Args: fmt.Sprintf(`{"url":"http://u:p@127.0.0.1:%s/secret","prompt":"p"}`, port)},
		}},
		openaitest.Reply{Text: "done"},
	)
	cfg := fmt.Sprintf(`[providers.small]
kind = "custom"
base_url = %q
model = "mini"
requires_api_key = false

[web]
fetch_model = "small/mini"

[permissions]
allow = ["WebFetch(domain:127.0.0.1)"]
`, e.fake.BaseURL())
	if err := os.WriteFile(filepath.Join(e.home, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := e.run(e.runArgs("--output-format", "stream-json", "read the docs")...)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	parseStream(t, out)
	if !strings.Contains(out, "The answer of small/mini") || !strings.Contains(out, "The default port is 4242.") {
		t.Errorf("the fetch model's answer is not in the results:\n%s", out)
	}
	var sawPage bool
	for _, req := range e.fake.Requests() {
		msgs := req["messages"].([]any)
		if c, _ := msgs[0].(map[string]any)["content"].(string); strings.Contains(c, "Web page content") {
			sawPage = strings.Contains(c, "`widget.toml`") && strings.Contains(c, "what is the default port?")
		}
	}
	if !sawPage {
		t.Error("the fetch model did not get the page as Markdown with the prompt")
	}
	if markerHits.Load() != 0 || hits.Load() != 1 {
		t.Errorf("the page server saw %d requests (%d of the refused forms), want 1 and 0", hits.Load(), markerHits.Load())
	}
	for _, want := range []string{"the sandbox has the network off", "non-canonical numeric", "user name or password"} {
		if !strings.Contains(out, want) {
			t.Errorf("no refusal saying %q:\n%s", want, out)
		}
	}

	// With the network on and every call allowed by the mode, the address
	// guard itself refuses the loopback forms no rule names.
	e.fake.Push(
		openaitest.Reply{ToolCalls: []openaitest.Call{
			{ID: "x1", Name: "WebFetch", Args: fmt.Sprintf(`{"url":"http://localhost:%s/secret","prompt":"p"}`, port)},
			{ID: "x2", Name: "WebFetch", Args: fmt.Sprintf(`{"url":"http://[::ffff:127.0.0.1]:%s/secret","prompt":"p"}`, port)},
			{ID: "x3", Name: "WebFetch", Args: fmt.Sprintf(`{"url":"http://[::1]:%s/secret","prompt":"p"}`, port)},
			{ID: "x4", Name: "WebFetch", Args: `{"url":"http://169.254.169.254/latest/meta-data/","prompt":"p"}`},
		}},
		openaitest.Reply{Text: "done"},
	)
	out, stderr, code = e.run(e.runArgs("--output-format", "stream-json", "--allow-network", "--permission-mode", "bypassPermissions", "again")...)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	if n := strings.Count(out, "WebFetch does not connect there"); n != 4 {
		t.Errorf("%d refusals by the address guard, want 4:\n%s", n, out)
	}
	if markerHits.Load() != 0 {
		t.Errorf("the refused forms reached the server %d times", markerHits.Load())
	}
}
