package frontmatter

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"pincer/core/config"
)

type fields struct {
	Name         string `yaml:"name"`
	Description  string `yaml:"description"`
	AllowedTools List   `yaml:"allowed-tools"`
	Disable      bool   `yaml:"disable-model-invocation"`
}

func TestParse(t *testing.T) {
	cases := []struct {
		name, in string
		want     fields
		body     string
		bodyLine int
	}{
		{"no frontmatter", "just a body\n", fields{}, "just a body\n", 1},
		{"empty file", "", fields{}, "", 1},
		{"empty block", "---\n---\nbody", fields{}, "body", 3},
		{"basic", "---\nname: x\ndescription: does x\n---\n# X\nrun it\n", fields{Name: "x", Description: "does x"}, "# X\nrun it\n", 5},
		{"bom and crlf", "\ufeff---\r\nname: x\r\n---\r\nbody\r\n", fields{Name: "x"}, "body\r\n", 4},
		{"dots close", "---\nname: x\n...\nbody", fields{Name: "x"}, "body", 4},
		{"trailing spaces on fences", "---  \nname: x\n--- \nbody", fields{Name: "x"}, "body", 4},
		{"tools as string", "---\nallowed-tools: Bash(git add:*), Bash(git status:*), Read\n---\n",
			fields{AllowedTools: List{"Bash(git add:*)", "Bash(git status:*)", "Read"}}, "", 4},
		{"tools space separated", "---\nallowed-tools: Read Grep  Glob\n---\n", fields{AllowedTools: List{"Read", "Grep", "Glob"}}, "", 4},
		{"tools as list", "---\nallowed-tools:\n  - Read\n  - Bash(npm test)\n---\n", fields{AllowedTools: List{"Read", "Bash(npm test)"}}, "", 6},
		{"tools flow list", "---\nallowed-tools: [Read, Grep]\n---\n", fields{AllowedTools: List{"Read", "Grep"}}, "", 4},
		{"tools null", "---\nallowed-tools:\n---\n", fields{}, "", 4},
		{"bool", "---\ndisable-model-invocation: true\n---\n", fields{Disable: true}, "", 4},
		{"body keeps a later ---", "---\nname: x\n---\na\n---\nb\n", fields{Name: "x"}, "a\n---\nb\n", 4},
		{"not a fence: text first", "hello\n---\nname: x\n---\n", fields{}, "hello\n---\nname: x\n---\n", 1},
		{"unknown keys are ignored", "---\nname: x\nhooks: {}\n---\n", fields{Name: "x"}, "", 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := Parse("f.md", []byte(c.in))
			if err != nil {
				t.Fatal(err)
			}
			var got fields
			if err := d.Decode(&got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("fields = %+v, want %+v", got, c.want)
			}
			if d.Body != c.body || d.BodyLine != c.bodyLine {
				t.Errorf("body = %q at line %d, want %q at %d", d.Body, d.BodyLine, c.body, c.bodyLine)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, in, want string
		line           int
	}{
		{"unclosed", "---\nname: x\nbody\n", "never closed", 1},
		{"bad yaml", "---\nname: x\n description: y: z\n---\n", "not allowed", 3},
		{"tab indent", "---\nname: x\n\tdescription: y\n---\n", "tab", 3},
		{"a list, not a mapping", "---\n- a\n- b\n---\n", "must be a mapping", 2},
		{"a scalar", "---\njust words\n---\n", "must be a mapping", 2},
		{"duplicate key", "---\nname: a\nname: b\n---\n", "already defined", 3},
		{"wrong type", "---\n\n\ndisable-model-invocation: [1]\n---\n", "", 4},
		{"tools as mapping", "---\nallowed-tools: {a: b}\n---\n", "want a list", 2},
		{"tools nested list", "---\nallowed-tools:\n  - [a]\n---\n", "single value", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := Parse("dir/f.md", []byte(c.in))
			if err == nil {
				var f fields
				err = d.Decode(&f)
			}
			var fe *config.FileError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v (%T), want a *config.FileError", err, err)
			}
			if fe.Path != "dir/f.md" || fe.Line != c.line || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %q (line %d), want dir/f.md line %d containing %q", err, fe.Line, c.line, c.want)
			}
			if !strings.HasPrefix(err.Error(), "dir/f.md:") {
				t.Errorf("err = %q, want FILE:LINE first", err)
			}
		})
	}
}

func TestKeysLineErrorf(t *testing.T) {
	d, err := Parse("f.md", []byte("---\nname: x\n\ndescription: y\n---\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Keys(); !reflect.DeepEqual(got, []string{"name", "description"}) {
		t.Errorf("Keys = %v", got)
	}
	if d.Line("description") != 4 || d.Line("none") != 0 {
		t.Errorf("Line = %d, %d", d.Line("description"), d.Line("none"))
	}
	if e := d.Errorf("description", "too %s", "long").Error(); e != "f.md:4: too long" {
		t.Errorf("Errorf = %q", e)
	}
	if !d.HasFrontmatter() {
		t.Error("HasFrontmatter false")
	}
}

func TestSplitList(t *testing.T) {
	cases := map[string]List{
		"":                           {},
		"Read":                       {"Read"},
		"Read,Grep":                  {"Read", "Grep"},
		" Read ,, Grep ":             {"Read", "Grep"},
		"Bash(git commit -m:*) Read": {"Bash(git commit -m:*)", "Read"},
		"Bash(a, b), Edit":           {"Bash(a, b)", "Edit"},
		"mcp__srv__tool\tWrite":      {"mcp__srv__tool", "Write"},
	}
	for in, want := range cases {
		if got := SplitList(in); !reflect.DeepEqual(got, want) {
			t.Errorf("SplitList(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTextKeys(t *testing.T) {
	in := "---\nargument-hint: [pr-number] [priority] it's\r\ndescription: [a list]\nother: 'q'\n---\n"
	d, err := ParseWith("f.md", []byte(in), Options{TextKeys: []string{"argument-hint", "other"}})
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Hint  string   `yaml:"argument-hint"`
		Desc  []string `yaml:"description"`
		Other string   `yaml:"other"`
	}
	if err := d.Decode(&f); err != nil {
		t.Fatal(err)
	}
	if f.Hint != "[pr-number] [priority] it's" || len(f.Desc) != 1 || f.Other != "q" {
		t.Errorf("%+v", f)
	}
	if _, err := Parse("f.md", []byte(in)); err == nil {
		t.Error("without TextKeys the same block parses")
	}
}
