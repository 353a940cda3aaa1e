package app

import (
	"testing"

	"pincer/core/config"
	"pincer/tools"
)

func TestSearchBackend(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	v := func(s string) config.Value { return config.Value{Text: s, Line: 3} }
	for _, tc := range []struct {
		name     string
		set      config.WebSettings
		getenv   map[string]string
		want     string // the backend's Name, "" for none
		wantWarn bool
	}{
		{"unset", config.WebSettings{}, nil, "", false},
		{"searxng", config.WebSettings{SearchBackend: v("searxng"), SearchURL: v("http://127.0.0.1:8888")}, nil, "SearXNG at http://127.0.0.1:8888", false},
		{"searxng without url", config.WebSettings{SearchBackend: v("SearXNG")}, nil, "", true},
		{"searxng bad url", config.WebSettings{SearchBackend: v("searxng"), SearchURL: v("file:///x")}, nil, "", true},
		{"brave with key", config.WebSettings{SearchBackend: v("brave")}, map[string]string{BraveKeyEnv: "k"}, "Brave Search", false},
		{"brave without key", config.WebSettings{SearchBackend: v("brave")}, nil, "", true},
		{"unknown", config.WebSettings{SearchBackend: v("google")}, nil, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, warn := searchBackend(tc.set, env(tc.getenv))
			got := ""
			if b != nil {
				got = b.Name()
			}
			if got != tc.want || (warn != "") != tc.wantWarn {
				t.Fatalf("got %q warn %q", got, warn)
			}
			if br, ok := b.(tools.Brave); ok && br.Key != "k" {
				t.Fatalf("key %q", br.Key)
			}
		})
	}
}
