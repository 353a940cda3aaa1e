package openai

import (
	"context"
	"net/http"
	"pincer/core/provider/internal/wire"
)

// ListModels returns the ids of the models the endpoint serves, in the server's
// order, from GET BaseURL+"/models". An empty list (including Ollama's "data": null) is
// an empty, non-nil slice. Errors are *provider.Error values classified like Stream's
// (or ctx.Err()); 429, 5xx and connection failures are retried the same way.
func (p *Provider) ListModels(ctx context.Context) ([]string, error) {
	ids, err := p.conn.Caller.ModelIDs(ctx, p.conn.Retry, p.conn.Request(http.MethodGet, p.conn.BaseURL+"/models", nil, "application/json"))
	if err != nil {
		return nil, wire.Redact(err, p.conn.APIKey)
	}
	return ids, nil
}
