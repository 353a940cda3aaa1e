package mcp

import (
	"sort"
	"strings"
)

// CommandLine is what the server runs or reaches, as `pincer mcp list`, the
// /mcp view and an approval show it: the command line with each word quoted
// for a POSIX shell where needed, then the names — never the values, which
// may hold expanded secrets — of the environment variables its entry adds; or
// the URL and its header names.
func (c ServerConfig) CommandLine() string {
	var b strings.Builder
	if c.Transport == TransportStdio || c.Command != "" {
		b.WriteString(shellQuote(c.Command))
		for _, a := range c.Args {
			b.WriteByte(' ')
			b.WriteString(shellQuote(a))
		}
		if names := sortedKeys(c.Env); len(names) > 0 {
			b.WriteString("  (env: " + strings.Join(names, ", ") + ")")
		}
		return b.String()
	}
	b.WriteString(c.URL)
	if names := sortedKeys(c.Headers); len(names) > 0 {
		b.WriteString("  (headers: " + strings.Join(names, ", ") + ")")
	}
	return b.String()
}

// shellQuote quotes w for a POSIX shell when it holds anything but safe
// characters.
func shellQuote(w string) string {
	if w != "" && strings.IndexFunc(w, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@+,%", r))
	}) < 0 {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
