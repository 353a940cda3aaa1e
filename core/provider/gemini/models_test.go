package gemini

import (
	"reflect"
	"testing"

	"pincer/core/provider"
	"pincer/core/provider/internal/streamtest"
)

func TestListModels(t *testing.T) {
	page1 := `{"models":[{"name":"models/gemini-2.5-flash","supportedGenerationMethods":["generateContent","countTokens"]},{"name":"models/text-embedding-004","supportedGenerationMethods":["embedContent"]}],"nextPageToken":"P2"}`
	page2 := `{"models":[{"name":"models/gemini-2.5-pro","supportedGenerationMethods":["generateContent"]}]}`
	s := streamtest.NewScript(t, streamtest.Status(503, `{"error":{"code":503,"message":"busy"}}`), streamtest.Status(200, page1), streamtest.Status(200, page2))
	ids, err := testProvider(s.URL).ListModels(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"gemini-2.5-flash", "gemini-2.5-pro"}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("ids %v", ids)
	}
	reqs := s.Requests()
	if len(reqs) != 3 || reqs[1].Path != "/models" || reqs[1].RawQuery != "pageSize=1000" || reqs[2].RawQuery != "pageSize=1000&pageToken=P2" || reqs[2].Header.Get("X-Goog-Api-Key") != "gm-test" {
		t.Fatalf("requests %+v", reqs)
	}
	s = streamtest.NewScript(t, streamtest.Status(200, `{"models":`))
	_, err = testProvider(s.URL).ListModels(t.Context())
	streamtest.WantErr(t, err, testName, provider.KindServer, "malformed model list")
}
