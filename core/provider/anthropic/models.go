package anthropic

import (
	"context"

	"github.com/anthropics/anthropic-sdk-go"

	"pincer/core/provider/internal/wire"
)

// ListModels returns the ids of the models the endpoint serves, newest first as
// Anthropic lists them, from GET BaseURL+"/v1/models" (every page, through the SDK's
// pager). Errors are *provider.Error values classified like Stream's (or ctx.Err());
// 429, 5xx and connection failures are retried the same way.
func (p *Provider) ListModels(ctx context.Context) ([]string, error) {
	var ids []string
	err := p.conn.Retry.Do(ctx, func() wire.Attempt {
		g := p.guard(ctx)
		defer g.release()
		ids = []string{}
		pager := p.client.Models.ListAutoPaging(g.ctx, anthropic.ModelListParams{Limit: anthropic.Int(1000)}, g.options()...)
		for pager.Next() {
			if id := pager.Current().ID; id != "" {
				ids = append(ids, id)
			}
		}
		if err := pager.Err(); err != nil {
			return p.failure(ctx, g, err, false)
		}
		return wire.Attempt{}
	})
	if err != nil {
		return nil, wire.Redact(err, p.conn.APIKey)
	}
	return ids, nil
}
