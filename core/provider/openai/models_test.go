package openai

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"pincer/core/provider"
	"pincer/core/provider/internal/streamcase"
	"pincer/core/provider/internal/streamtest"
)

// modelsServer serves resp at /v1/models, checking method, path and key.
func modelsServer(t *testing.T, resp streamcase.Response) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/v1/models" || r.Header.Get("Authorization") != "Bearer sk-test" {
			t.Errorf("request %s %s auth %q", r.Method, r.URL.Path, r.Header.Get("Authorization"))
		}
		resp.Serve(w)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestListModelsFixture(t *testing.T) {
	srv := modelsServer(t, streamcase.ParseResponse(t, streamcase.Fixture(t, "models-list.txt").Payload))
	got, err := testProvider(srv.URL + "/v1").ListModels(context.Background())
	if want := []string{"gpt-4.1", "gpt-4.1-mini", "o3"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("models = %#v, %v; want %#v", got, err, want)
	}
}

func TestListModelsCases(t *testing.T) {
	// Ask for all three captures before skipping, so that a missing shared/ counts
	// each of them.
	load := map[string][]byte{}
	for _, name := range []string{"41-models-lmstudio.txt", "42-models-ollama.txt", "43-models-cerebras.txt"} {
		if c, ok := streamcase.Optional(t, name); ok {
			load[name] = c.Payload
		}
	}
	if len(load) < 3 {
		t.SkipNow()
	}
	ollama := load["42-models-ollama.txt"]
	first, second, ok := bytes.Cut(ollama, []byte("=== second response (no models pulled) ===\n"))
	if !ok {
		t.Fatal("42: no second-response marker")
	}
	tests := []struct {
		name    string
		payload []byte
		want    []string
	}{
		{"41-models-lmstudio", load["41-models-lmstudio.txt"],
			[]string{"qwen/qwen2.5-vl-7b", "qwen/qwen3-vl-8b", "google/gemma-3-12b", "text-embedding-nomic-embed-text-v1.5"}},
		{"42-models-ollama", first, []string{"test-model"}},
		{"42-models-ollama-empty", second, []string{}},
		{"43-models-cerebras", load["43-models-cerebras.txt"],
			[]string{"gemma-4-31b", "gpt-oss-120b", "zai-glm-4.7"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := modelsServer(t, streamcase.ParseResponse(t, tc.payload))
			got, err := testProvider(srv.URL + "/v1").ListModels(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got == nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("models = %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestListModelsErrors(t *testing.T) {
	t.Run("401 capture", func(t *testing.T) {
		srv := modelsServer(t, streamcase.ParseResponse(t, streamcase.Load(t, "34-openai-http401-invalid-api-key.txt").Payload))
		_, err := testProvider(srv.URL + "/v1").ListModels(context.Background())
		perr := streamtest.WantErr(t, err, testName, provider.KindAuth, "Incorrect API key provided")
		if perr.Status != 401 {
			t.Fatalf("status = %d", perr.Status)
		}
	})
	t.Run("503 then success is retried", func(t *testing.T) {
		s := streamtest.NewScript(t, status(503), func(w http.ResponseWriter) {
			_, _ = w.Write([]byte(`{"object":"list","data":[{"id":"m1"}]}`))
		})
		got, err := testProvider(s.URL).ListModels(context.Background())
		if err != nil || !reflect.DeepEqual(got, []string{"m1"}) || s.Hits() != 2 {
			t.Fatalf("models %v, err %v, requests %d", got, err, s.Hits())
		}
	})
	t.Run("not JSON", func(t *testing.T) {
		s := streamtest.NewScript(t, func(w http.ResponseWriter) { _, _ = w.Write([]byte("<html>hi</html>")) })
		_, err := testProvider(s.URL).ListModels(context.Background())
		streamtest.WantErr(t, err, testName, provider.KindServer, "malformed model list")
	})
}
