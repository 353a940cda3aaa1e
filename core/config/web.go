package config

import (
	"fmt"
	"strings"
)

// webKeys are the keys of a [web] table.
var webKeys = []string{"fetch_model", "search_backend", "search_url", "search_max_uses", "search_allowed_domains", "search_blocked_domains"}

// WebSettings are the [web] table's settings (WebFetch and WebSearch). A zero
// field was not set. Path is the file they come from (the user's config.toml:
// a project file cannot choose where pages and queries are sent).
type WebSettings struct {
	// FetchModel is `fetch_model`, "PROVIDER/MODEL": the small model that
	// answers WebFetch's prompt over a page (as Claude Code uses Haiku).
	FetchModel Value
	// SearchBackend is `search_backend`: "searxng" or "brave".
	SearchBackend Value
	// SearchURL is `search_url`: the SearXNG instance's base URL
	// (https://searx.example/) or, for brave, another API endpoint.
	SearchURL Value
	// SearchMaxUses is `search_max_uses`: WebSearch calls allowed per session
	// (0: not set).
	SearchMaxUses int
	// SearchAllowedDomains and SearchBlockedDomains are
	// `search_allowed_domains` / `search_blocked_domains`: the domains the
	// server-side web search (Anthropic's) takes results only from, or never
	// from; one list or the other (both set: the allowed list, and a warning).
	SearchAllowedDomains []string
	SearchBlockedDomains []string
	Path                 string
}

// Web reads the [web] table of the user's config.toml. A project file's [web]
// is not applied (a warning): a repository could otherwise send the pages the
// model fetches, or its queries, to an endpoint of its choosing. A value of the
// wrong type or an unknown key is a warning and is left out.
func (s *Sources) Web() (WebSettings, []error) {
	var out WebSettings
	var errs []error
	for _, d := range s.docs(ProjectConfig) {
		if _, ok := d.Tree["web"]; ok {
			errs = append(errs, d.errorAt("web", true,
				"[web] in a project file is not applied: a repository cannot choose where pages and searches are sent; set it in your own config.toml"))
		}
	}
	for _, d := range s.docs(UserConfig) {
		raw, ok := d.Tree["web"]
		if !ok {
			continue
		}
		m, ok := raw.(map[string]any)
		if !ok {
			errs = append(errs, d.errorAt("web", true, "[web] not applied: web must be a table, not %s", kindOf(raw)))
			continue
		}
		out.Path = d.Path
		for _, k := range sortedMapKeys(m) {
			line, col := d.Line("web." + k)
			switch k {
			case "fetch_model", "search_backend", "search_url":
				v, ok := m[k].(string)
				if !ok {
					errs = append(errs, d.errorAt("web."+k, true, "[web] %s: want a string, not %s", k, kindOf(m[k])))
					continue
				}
				val := Value{Text: v, Line: line, Column: col}
				switch k {
				case "fetch_model":
					out.FetchModel = val
				case "search_backend":
					out.SearchBackend = val
				default:
					out.SearchURL = val
				}
			case "search_max_uses":
				n, ok := m[k].(int64)
				if !ok || n < 1 {
					errs = append(errs, d.errorAt("web."+k, true, "[web] search_max_uses: want a whole number of at least 1, not %v", m[k]))
					continue
				}
				out.SearchMaxUses = int(n)
			case "search_allowed_domains", "search_blocked_domains":
				list, ok := domainList(m[k])
				if !ok {
					errs = append(errs, d.errorAt("web."+k, true, "[web] %s: want an array of domain names (\"example.com\"), not %v", k, m[k]))
					continue
				}
				if k == "search_allowed_domains" {
					out.SearchAllowedDomains = list
				} else {
					out.SearchBlockedDomains = list
				}
			default:
				errs = append(errs, d.errorAt("web."+k, true, "[web] unknown key %q, ignored (known: %s)", k, strings.Join(webKeys, ", ")))
			}
		}
	}
	if len(out.SearchAllowedDomains) > 0 && len(out.SearchBlockedDomains) > 0 {
		errs = append(errs, fmt.Errorf("%s: [web] search_allowed_domains and search_blocked_domains cannot both apply (Anthropic's web search takes one): search_blocked_domains is ignored", out.Path))
		out.SearchBlockedDomains = nil
	}
	return out, errs
}

// domainList is a TOML array of non-empty strings without spaces or slashes.
func domainList(v any) ([]string, bool) {
	arr, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(arr))
	for _, e := range arr {
		s, ok := e.(string)
		s = strings.TrimSpace(s)
		if !ok || s == "" || strings.ContainsAny(s, " /\t") {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// String is the settings as TOML-ish text, for messages.
func (w WebSettings) String() string {
	return fmt.Sprintf("fetch_model=%q search_backend=%q search_url=%q search_max_uses=%d",
		w.FetchModel.Text, w.SearchBackend.Text, w.SearchURL.Text, w.SearchMaxUses)
}
