package prompt

import (
	"slices"
	"testing"
)

func TestFindImports(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"start of text", "@a.md", []string{"a.md"}},
		{"after space and in lists", "see @docs/b.md and\n- @c.md", []string{"docs/b.md", "c.md"}},
		{"home and absolute", "@~/x.md @/etc/y.md", []string{"~/x.md", "/etc/y.md"}},
		{"email is not an import", "mail me@example.com", nil},
		{"trailing punctuation", "read @a.md, then @b.md.", []string{"a.md", "b.md"}},
		{"escaped space", `@my\ notes.md`, []string{"my notes.md"}},
		{"repeats once", "@a.md @a.md", []string{"a.md"}},
		{"bare at and tilde", "@ @~ x", nil},
		{"inline code", "use `@not.md` but @yes.md", []string{"yes.md"}},
		{"double backtick span", "``a ` @not.md`` @yes.md", []string{"yes.md"}},
		{"unmatched backtick is literal", "a ` @yes.md", []string{"yes.md"}},
		{"escaped backtick opens no span", "\\`x @yes.md` @also.md", []string{"yes.md", "also.md"}},
		{"span stops at blank line", "a `b\n\n@yes.md` c", []string{"yes.md"}},
		{"span over a line break", "a `b\n@no.md` c", nil},
		{"backtick fence", "```\n@no.md\n```\n@yes.md", []string{"yes.md"}},
		{"tilde fence with info", "~~~sh\n@no.md\n~~~\n@yes.md", []string{"yes.md"}},
		{"longer closing fence", "```\n@no.md\n`````\n@yes.md", []string{"yes.md"}},
		{"shorter run does not close", "````\n```\n@no.md\n````\n@yes.md", []string{"yes.md"}},
		{"other char does not close", "```\n~~~\n@no.md\n```\n@yes.md", []string{"yes.md"}},
		{"indented fence", "   ```\n@no.md\n   ```\n@yes.md", []string{"yes.md"}},
		{"four spaces is not a fence", "    ```\n@yes.md", []string{"yes.md"}},
		{"unclosed fence runs to end", "@yes.md\n```\n@no.md", []string{"yes.md"}},
		{"inline triple backticks", "```x``` @yes.md", []string{"yes.md"}},
		{"crlf", "```\r\n@no.md\r\n```\r\n@yes.md\r\n", []string{"yes.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := findImports(tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("findImports(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestResolveImport(t *testing.T) {
	tests := []struct {
		ref, base, home, want string
		ok                    bool
	}{
		{"b.md", "/p/d", "/h", "/p/d/b.md", true},
		{"../c.md", "/p/d", "/h", "/p/c.md", true},
		{"~/x.md", "/p/d", "/h", "/h/x.md", true},
		{"~/x.md", "/p/d", "", "", false},
		{"/abs/./y.md", "/p/d", "/h", "/abs/y.md", true},
	}
	for _, tt := range tests {
		got, ok := resolveImport(tt.ref, tt.base, tt.home)
		if got != tt.want || ok != tt.ok {
			t.Errorf("resolveImport(%q, %q, %q) = %q, %v; want %q, %v", tt.ref, tt.base, tt.home, got, ok, tt.want, tt.ok)
		}
	}
}

func TestStripCodeKeepsLayout(t *testing.T) {
	in := "a `b` c\n```\nx\n```\nd"
	out := stripCode(in)
	if len(out) != len(in) {
		t.Fatalf("length changed: %q", out)
	}
	if out != "a     c\n   \n \n   \nd" {
		t.Errorf("stripCode = %q", out)
	}
}
