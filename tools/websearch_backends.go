package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// BraveSearchURL is Brave's web search API endpoint.
const BraveSearchURL = "https://api.search.brave.com/res/v1/web/search"

// searchTimeout bounds one search request.
const searchTimeout = 20 * time.Second

// searchMaxBody bounds a search engine's answer (bytes).
const searchMaxBody = 4 << 20

// SearXNG is a SearXNG-compatible JSON endpoint: GET BASE/search?q=...&format=json,
// answering {"results": [{"title", "url", "content"}]}.
type SearXNG struct {
	// BaseURL is the instance's URL ("https://searx.example/").
	BaseURL string
	Client  *http.Client // nil: a client with searchTimeout
}

// Name names the instance.
func (s SearXNG) Name() string { return "SearXNG at " + s.BaseURL }

// Search asks the instance.
func (s SearXNG) Search(ctx context.Context, query string) ([]SearchHit, error) {
	u := strings.TrimSuffix(s.BaseURL, "/") + "/search?" + url.Values{"q": {query}, "format": {"json"}}.Encode()
	var body struct {
		Results []struct {
			Title, URL, Content string
		} `json:"results"`
	}
	if err := getJSON(ctx, s.Client, u, nil, &body); err != nil {
		return nil, err
	}
	hits := make([]SearchHit, 0, len(body.Results))
	for _, r := range body.Results {
		hits = append(hits, SearchHit{Title: r.Title, URL: r.URL, Snippet: r.Content})
	}
	return hits, nil
}

// Brave is Brave's Search API: GET ENDPOINT?q=...&count=20 with the key in
// X-Subscription-Token, answering {"web": {"results": [{"title", "url", "description"}]}}.
type Brave struct {
	Key      string
	Endpoint string       // "": BraveSearchURL
	Client   *http.Client // nil: a client with searchTimeout
}

// Name is "Brave Search".
func (Brave) Name() string { return "Brave Search" }

// Search asks Brave.
func (b Brave) Search(ctx context.Context, query string) ([]SearchHit, error) {
	ep := b.Endpoint
	if ep == "" {
		ep = BraveSearchURL
	}
	u := ep + "?" + url.Values{"q": {query}, "count": {"20"}}.Encode()
	var body struct {
		Web struct {
			Results []struct {
				Title, URL, Description string
			} `json:"results"`
		} `json:"web"`
	}
	if err := getJSON(ctx, b.Client, u, map[string]string{"X-Subscription-Token": b.Key}, &body); err != nil {
		return nil, err
	}
	hits := make([]SearchHit, 0, len(body.Web.Results))
	for _, r := range body.Web.Results {
		hits = append(hits, SearchHit{Title: stripTags(r.Title), URL: r.URL, Snippet: stripTags(r.Description)})
	}
	return hits, nil
}

// stripTags drops the <strong> marks Brave puts around matched words.
func stripTags(s string) string {
	return strings.NewReplacer("<strong>", "", "</strong>", "", "<b>", "", "</b>", "").Replace(s)
}

// getJSON GETs u with headers and decodes the JSON answer into v.
func getJSON(ctx context.Context, c *http.Client, u string, headers map[string]string, v any) error {
	if c == nil {
		c = &http.Client{Timeout: searchTimeout}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	for k, val := range headers {
		req.Header.Set(k, val)
	}
	resp, err := c.Do(req)
	if err != nil {
		return unwrapURLError(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, searchMaxBody))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		msg, _ := cutRunes(strings.TrimSpace(string(data)), 200)
		return fmt.Errorf("the search engine answered %s: %s", resp.Status, msg)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("the search engine's answer is not the JSON expected: %v", err)
	}
	return nil
}
