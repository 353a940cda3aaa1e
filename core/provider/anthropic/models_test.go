package anthropic

import (
	"reflect"
	"testing"

	"pincer/core/provider"
	"pincer/core/provider/internal/streamtest"
)

func TestListModels(t *testing.T) {
	page1 := `{"data":[{"type":"model","id":"claude-sonnet-4-6","display_name":"Claude Sonnet 4.6","created_at":"2026-02-17T00:00:00Z"},{"type":"model","id":"claude-haiku-4-5-20251001","display_name":"Claude Haiku 4.5","created_at":"2025-10-01T00:00:00Z"}],"has_more":true,"first_id":"claude-sonnet-4-6","last_id":"claude-haiku-4-5-20251001"}`
	page2 := `{"data":[{"type":"model","id":"claude-3-haiku-20240307","display_name":"Claude Haiku 3","created_at":"2024-03-07T00:00:00Z"}],"has_more":false,"first_id":"claude-3-haiku-20240307","last_id":"claude-3-haiku-20240307"}`
	s := streamtest.NewScript(t, streamtest.Status(529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`),
		streamtest.Status(200, page1), streamtest.Status(200, page2))
	ids, err := testProvider(s.URL).ListModels(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"claude-sonnet-4-6", "claude-haiku-4-5-20251001", "claude-3-haiku-20240307"}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("ids %v", ids)
	}
	reqs := s.Requests()
	if len(reqs) != 3 || reqs[1].Path != "/v1/models" || reqs[2].RawQuery == reqs[1].RawQuery || reqs[1].Header.Get("X-Api-Key") != "sk-ant-test" {
		t.Fatalf("requests %+v", reqs)
	}

	s = streamtest.NewScript(t, streamtest.Status(401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`))
	_, err = testProvider(s.URL).ListModels(t.Context())
	streamtest.WantErr(t, err, testName, provider.KindAuth, "invalid x-api-key")
}
