package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWebSearchDomains: [web] search_allowed_domains / search_blocked_domains
// are arrays of domain names; another value is a warning and left out; both
// set keep the allowed list only, with a warning.
func TestWebSearchDomains(t *testing.T) {
	for _, tc := range []struct {
		name, toml     string
		allowed, block []string
		warn           string
	}{
		{"allowed", `search_allowed_domains = ["go.dev", "pkg.go.dev"]`, []string{"go.dev", "pkg.go.dev"}, nil, ""},
		{"blocked", `search_blocked_domains = ["spam.example"]`, nil, []string{"spam.example"}, ""},
		{"not an array", `search_allowed_domains = "go.dev"`, nil, nil, "want an array"},
		{"a URL", `search_blocked_domains = ["https://x.example/"]`, nil, nil, "want an array"},
		{"empty name", `search_allowed_domains = [""]`, nil, nil, "want an array"},
		{"both", "search_allowed_domains = [\"a.example\"]\nsearch_blocked_domains = [\"b.example\"]", []string{"a.example"}, nil, "cannot both apply"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.toml")
			if err := os.WriteFile(path, []byte("[web]\n"+tc.toml+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			w, errs := ReadSources([]Source{{Kind: UserConfig, Path: path, Format: TOML}}, "").Web()
			if !slices.Equal(w.SearchAllowedDomains, tc.allowed) || !slices.Equal(w.SearchBlockedDomains, tc.block) {
				t.Errorf("allowed %q blocked %q", w.SearchAllowedDomains, w.SearchBlockedDomains)
			}
			var msgs []string
			for _, e := range errs {
				msgs = append(msgs, e.Error())
			}
			if got := strings.Join(msgs, "; "); (tc.warn == "") != (got == "") || !strings.Contains(got, tc.warn) {
				t.Errorf("warnings %q, want %q", got, tc.warn)
			}
		})
	}
}
