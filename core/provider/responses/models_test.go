package responses

import (
	"reflect"
	"testing"

	"pincer/core/provider"
	"pincer/core/provider/internal/streamtest"
)

func TestListModels(t *testing.T) {
	s := streamtest.NewScript(t, streamtest.Status(200, `{"object":"list","data":[{"id":"gpt-5","object":"model"},{"id":"o4-mini","object":"model"}]}`))
	ids, err := testProvider(s.URL).ListModels(t.Context())
	if err != nil || !reflect.DeepEqual(ids, []string{"gpt-5", "o4-mini"}) {
		t.Fatalf("ids %v err %v", ids, err)
	}
	if r := s.Requests()[0]; r.Method != "GET" || r.Path != "/models" || r.Header.Get("Authorization") != "Bearer sk-test" {
		t.Fatalf("request %+v", r)
	}
	s = streamtest.NewScript(t, streamtest.Status(401, `{"error":{"message":"bad key","code":"invalid_api_key"}}`))
	_, err = testProvider(s.URL).ListModels(t.Context())
	streamtest.WantErr(t, err, testName, provider.KindAuth, "bad key")
}
