package permission

import "strings"

// What WebFetch's guard asks of the rules (tools.WebFetch.NamedHost and
// AllowedURL): the permission decision itself is Evaluate's, on the URL. Only
// the person's rules count here (Rule.Project: a repository's rule neither
// unlocks a special address nor the network a person turned off).

// AllowsURL reports whether an allow rule of r lets WebFetch fetch rawURL: a
// bare WebFetch rule or a WebFetch(domain:...) rule matching its host, wildcards
// included. With the sandbox's network off, WebFetch fetches only such URLs.
func (r RuleSet) AllowsURL(rawURL string) bool {
	_, ok := firstAny(withoutProject(r.Allow), Input{Tool: "WebFetch", Kind: KindFetch, URL: rawURL})
	return ok
}

// AllowsSearch reports whether an allow rule of r names WebSearch (the bare
// WebSearch rule, as Claude Code's). With the sandbox's network off,
// WebSearch searches only with such a rule.
func (r RuleSet) AllowsSearch() bool {
	_, ok := firstAny(withoutProject(r.Allow), Input{Tool: "WebSearch", Kind: KindFetch})
	return ok
}

// NamesHost reports whether an allow rule of r names exactly host in
// WebFetch(domain:HOST) — not a wildcard, not a bare WebFetch rule — which is
// what lets a fetch reach a loopback, private or link-local address: a person
// wrote that host down. Case and a final dot are ignored.
func (r RuleSet) NamesHost(host string) bool {
	h := strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if h == "" {
		return false
	}
	for _, rule := range withoutProject(r.Allow) {
		if rule.Tool != "WebFetch" {
			continue
		}
		want, ok := strings.CutPrefix(rule.Specifier, "domain:")
		if ok && !strings.HasPrefix(want, "*") && strings.TrimSuffix(strings.ToLower(strings.Trim(want, "[]")), ".") == h {
			return true
		}
	}
	return false
}
