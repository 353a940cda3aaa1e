package permission

import "testing"

// FuzzParseRule: ParseRule never panics on any string, and a rule it accepts
// round-trips through String to an equal rule.
func FuzzParseRule(f *testing.F) {
	for _, s := range []string{
		"", "Bash", "Bash(*)", "Bash(npm run test:*)", "Bash(git * main)", `Bash(echo \*)`,
		"Read", "Read(./src/**)", "Edit(//abs/path/*.go)", "Write(~/notes/*.md)", "Read(src/(a)/b)",
		"WebFetch(domain:example.com)", "mcp__server", "mcp__server__tool", "mcp__server__*",
		"Tool()", "Bash(", "(x)", "__*", "Read([)", "  Glob(**/*.ts)  ", "Bash(a\nb)", "Read(a\\",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRule(s)
		if err != nil {
			return
		}
		back, err := ParseRule(r.String())
		if err != nil {
			t.Fatalf("ParseRule(%q) = %+v, but ParseRule(%q) fails: %v", s, r, r.String(), err)
		}
		if back != r {
			t.Fatalf("ParseRule(%q) = %+v, round trip through %q gives %+v", s, r, r.String(), back)
		}
	})
}
