package responses

import (
	"context"
	"encoding/json"
	"net/http"

	"pincer/core/provider"
	"pincer/core/provider/internal/wire"
)

// modelList is the body of GET /models; only ids are read.
type modelList struct {
	Data []struct {
		ID string `json:"id"`
	} `json:"data"`
}

// ListModels returns the ids of the models the endpoint serves, in the server's
// order, from GET BaseURL+"/models". Errors are *provider.Error values classified
// like Stream's (or ctx.Err()); 429, 5xx and connection failures are retried the same
// way.
func (p *Provider) ListModels(ctx context.Context) ([]string, error) {
	var ids []string
	err := p.retry.Do(ctx, func() wire.Attempt {
		data, a := p.caller.ReadAll(ctx, func(actx context.Context) (*http.Request, error) {
			req, err := http.NewRequestWithContext(actx, http.MethodGet, p.baseURL+"/models", nil)
			if err == nil {
				p.authorize(req)
			}
			return req, err
		})
		if a.Err != nil {
			return a
		}
		var list modelList
		if err := json.Unmarshal(data, &list); err != nil {
			return wire.Attempt{Err: p.caller.Errorf(provider.KindServer, "malformed model list (%v): %s", err, wire.Truncate(wire.OneLine(string(data)), 120))}
		}
		ids = make([]string, 0, len(list.Data))
		for _, m := range list.Data {
			if m.ID != "" {
				ids = append(ids, m.ID)
			}
		}
		return wire.Attempt{}
	})
	if err != nil {
		return nil, wire.Redact(err, p.apiKey)
	}
	return ids, nil
}
