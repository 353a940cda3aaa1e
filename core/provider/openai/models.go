package openai

import (
	"context"
	"encoding/json"
	"io"
	"net/http"

	"pincer/core/provider"
)

// modelList is the body of GET /models. Only ids are read: "created" is absent on LM
// Studio (case 41) and 0 on Cerebras (case 43), and "owned_by" varies.
type modelList struct {
	Data []struct {
		ID string `json:"id"`
	} `json:"data"` // null on Ollama with no model pulled (case 42)
}

// maxModelList bounds the size of a model list read (OpenRouter's is a few hundred KB).
const maxModelList = 16 << 20

// ListModels returns the ids of the models the endpoint serves, in the server's
// order, from GET BaseURL+"/models". An empty list (including Ollama's "data": null) is
// an empty, non-nil slice. Errors are *provider.Error values classified like Stream's
// (or ctx.Err()); 429, 5xx and connection failures are retried the same way.
func (p *Provider) ListModels(ctx context.Context) ([]string, error) {
	var ids []string
	err := p.retry(ctx, func() attempt {
		var a attempt
		ids, a = p.listOnce(ctx)
		return a
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// listOnce performs one GET /models.
func (p *Provider) listOnce(ctx context.Context) ([]string, attempt) {
	x, a := p.open(ctx, http.MethodGet, "/models", nil, "application/json")
	if x == nil {
		return nil, a
	}
	defer x.close()
	data, err := io.ReadAll(io.LimitReader(x.body, maxModelList))
	if err != nil {
		return nil, attempt{err: p.readError(ctx, x, err)}
	}
	var list modelList
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, attempt{err: p.errorf(provider.KindServer, "malformed model list (%v): %s", err, truncate(oneLine(string(data)), 120))}
	}
	ids := make([]string, 0, len(list.Data))
	for _, m := range list.Data {
		if m.ID != "" {
			ids = append(ids, m.ID)
		}
	}
	return ids, attempt{}
}
