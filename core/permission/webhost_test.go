package permission

import "testing"

func TestWebHostRules(t *testing.T) {
	rules := RuleSet{Allow: []Rule{{Tool: "WebFetch", Specifier: "domain:127.0.0.1"}, {Tool: "WebFetch", Specifier: "domain:*.example.com"},
		{Tool: "WebFetch", Specifier: "domain:Docs.Go.dev"}, {Tool: "Read"}}}
	for _, tc := range []struct {
		host        string
		url         string
		named, allw bool
	}{
		{"127.0.0.1", "http://127.0.0.1:8080/x", true, true},
		{"docs.go.dev", "https://docs.go.dev/", true, true},
		{"docs.go.dev.", "https://docs.go.dev./", true, true},
		{"a.example.com", "https://a.example.com/", false, true},
		{"example.com", "https://example.com/", false, false},
		{"localhost", "http://localhost/", false, false},
		{"::1", "http://[::1]/", false, false},
		{"", "", false, false},
	} {
		if got := rules.NamesHost(tc.host); got != tc.named {
			t.Errorf("NamesHost(%q) = %v", tc.host, got)
		}
		if got := rules.AllowsURL(tc.url); got != tc.allw {
			t.Errorf("AllowsURL(%q) = %v", tc.url, got)
		}
	}
	if !(RuleSet{Allow: []Rule{{Tool: "WebFetch"}}}).AllowsURL("https://x.org/") || (RuleSet{Allow: []Rule{{Tool: "WebFetch"}}}).NamesHost("x.org") {
		t.Error("a bare WebFetch rule allows every URL and names no host")
	}
}
