package wire

import (
	"context"
	"encoding/json"
	"net/http"

	"pincer/core/provider"
)

// modelList is an OpenAI-style model list: GET /models on OpenAI and the servers that
// copy it. Only ids are read: "created" is absent on LM Studio (case 41) and 0 on
// Cerebras (case 43), and "owned_by" varies.
type modelList struct {
	Data []struct {
		ID string `json:"id"`
	} `json:"data"` // null on Ollama with no model pulled (case 42)
}

// ModelIDs reads an OpenAI-style model list ({"data": [{"id": ...}]}) from the
// exchange that build makes, retried under r. It returns the ids in the server's
// order; an empty list (including "data": null) is an empty, non-nil slice. A body
// that is not such a list is KindServer.
func (c *Caller) ModelIDs(ctx context.Context, r Retry, build func(context.Context) (*http.Request, error)) ([]string, error) {
	var ids []string
	err := r.Do(ctx, func() Attempt {
		data, a := c.ReadAll(ctx, build)
		if a.Err != nil {
			return a
		}
		var list modelList
		if err := json.Unmarshal(data, &list); err != nil {
			return Attempt{Err: c.Errorf(provider.KindServer, "malformed model list (%v): %s", err, Truncate(OneLine(string(data)), 120))}
		}
		ids = make([]string, 0, len(list.Data))
		for _, m := range list.Data {
			if m.ID != "" {
				ids = append(ids, m.ID)
			}
		}
		return Attempt{}
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}
