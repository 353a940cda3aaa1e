package gemini

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"pincer/core/provider"
	"pincer/core/provider/internal/wire"
)

// modelPage is one page of GET models.
type modelPage struct {
	Models []struct {
		Name                       string   `json:"name"` // "models/gemini-2.5-flash"
		SupportedGenerationMethods []string `json:"supportedGenerationMethods"`
	} `json:"models"`
	NextPageToken string `json:"nextPageToken"`
}

// maxPages bounds the pages read, against a server that never stops paging.
const maxPages = 50

// ListModels returns the ids of the models that can generate content ("gemini-2.5-
// flash", without the "models/" prefix), in the server's order, from GET
// BaseURL+"/models" (every page). Embedding-only models are left out. Errors are
// *provider.Error values classified like Stream's (or ctx.Err()); 429, 5xx and
// connection failures are retried the same way.
func (p *Provider) ListModels(ctx context.Context) ([]string, error) {
	var ids []string
	err := p.conn.Retry.Do(ctx, func() wire.Attempt {
		ids = []string{}
		token := ""
		for range maxPages {
			q := url.Values{"pageSize": {"1000"}}
			if token != "" {
				q.Set("pageToken", token)
			}
			data, a := p.conn.Caller.ReadAll(ctx, p.conn.Request(http.MethodGet, p.conn.BaseURL+"/models?"+q.Encode(), nil, "application/json"))
			if a.Err != nil {
				return a
			}
			var page modelPage
			if err := json.Unmarshal(data, &page); err != nil {
				return wire.Attempt{Err: p.conn.Caller.Errorf(provider.KindServer, "malformed model list (%v): %s", err, wire.Truncate(wire.OneLine(string(data)), 120))}
			}
			for _, m := range page.Models {
				methods := m.SupportedGenerationMethods
				if id := strings.TrimPrefix(m.Name, "models/"); id != "" &&
					(methods == nil || slices.Contains(methods, "generateContent") || slices.Contains(methods, "streamGenerateContent")) {
					ids = append(ids, id)
				}
			}
			if token = page.NextPageToken; token == "" {
				break
			}
		}
		return wire.Attempt{}
	})
	if err != nil {
		return nil, wire.Redact(err, p.conn.APIKey)
	}
	return ids, nil
}
