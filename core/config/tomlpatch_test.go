package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	toml "github.com/pelletier/go-toml/v2"
)

// TestPatchTOML: each change lands in place, keeping the comments and the
// rest as written; the result always parses to exactly the document; what
// cannot be patched in place is rendered whole.
func TestPatchTOML(t *testing.T) {
	base := `# my local setup
default_model = "local/fake-1" # the one I use

[providers.local]
# the server's context size
kind = "custom"
base_url = "http://127.0.0.1:8089/v1"
models = ["fake-1"] # from /v1/models
`
	cases := []struct {
		name   string
		old    string
		change func(doc map[string]any)
		keep   []string // substrings that must survive (in-place cases)
		lost   []string // substrings that must be gone
	}{
		{"a value changes", base, func(d map[string]any) { d["default_model"] = "local/fake-2" },
			[]string{"# my local setup", `default_model = "local/fake-2" # the one I use`, "# the server's context size"}, []string{"fake-1\" #"}},
		{"an array grows", base, func(d map[string]any) { table(d, "providers", "local")["models"] = []any{"fake-1", "fake-2"} },
			[]string{`models = ["fake-1", "fake-2"] # from /v1/models`, "# my local setup"}, nil},
		{"a key is added to its table", base, func(d map[string]any) { table(d, "providers", "local")["context_window"] = int64(32000) },
			[]string{"models = [\"fake-1\"] # from /v1/models\ncontext_window = 32000\n", "# the server's context size"}, nil},
		{"a top-level key is added", base, func(d map[string]any) { d["theme"] = "dark" },
			[]string{"# the one I use\ntheme = \"dark\"\n"}, nil},
		{"a key is removed", base, func(d map[string]any) { delete(table(d, "providers", "local"), "base_url") },
			[]string{"# the server's context size\nkind"}, []string{"base_url"}},
		{"a new table", base, func(d map[string]any) { table(d, "mcp", "servers", "tst")["command"] = "echo" },
			[]string{"# my local setup", "\n[mcp.servers.tst]\ncommand = \"echo\"\n"}, nil},
		{"an empty table is not written", base, func(d map[string]any) { d["models"] = map[string]any{} },
			[]string{"# my local setup"}, []string{"[models]"}},
		{"a table is dropped", base, func(d map[string]any) { delete(table(d, "providers"), "local") },
			[]string{"# my local setup", "default_model"}, []string{"[providers.local]", "kind"}},
		{"no newline at the end", "a = 1 # one", func(d map[string]any) { d["b"] = int64(2) },
			[]string{"a = 1 # one\nb = 2\n"}, nil},
		{"an empty file", "", func(d map[string]any) { d["default_model"] = "x/y" }, []string{"default_model = \"x/y\""}, nil},
		{"an array of tables: rendered whole", "# c\n[[x]]\na = 1\n", func(d map[string]any) { d["y"] = int64(1) }, nil, []string{"# c"}},
		{"a table made by dotted keys: rendered whole", "# c\na.b = 1\n", func(d map[string]any) { table(d, "a")["c"] = int64(2) }, nil, nil},
	}
	for _, c := range cases {
		doc := map[string]any{}
		if err := toml.Unmarshal([]byte(c.old), &doc); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		c.change(doc)
		out, err := PatchTOML([]byte(c.old), doc)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := map[string]any{}
		if err := toml.Unmarshal(out, &got); err != nil {
			t.Fatalf("%s: the result does not parse: %v\n%s", c.name, err, out)
		}
		want, _ := normalTOML(doc)
		g, _ := normalTOML(got)
		if !reflect.DeepEqual(g, want) {
			t.Errorf("%s: the result holds %v, want %v\n%s", c.name, g, want, out)
		}
		for _, k := range c.keep {
			if !strings.Contains(string(out), k) {
				t.Errorf("%s: %q is gone:\n%s", c.name, k, out)
			}
		}
		for _, l := range c.lost {
			if strings.Contains(string(out), l) {
				t.Errorf("%s: %q is still there:\n%s", c.name, l, out)
			}
		}
	}
}

// table returns doc's table at path, made when missing.
func table(doc map[string]any, path ...string) map[string]any {
	for _, k := range path {
		next, ok := doc[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			doc[k] = next
		}
		doc = next
	}
	return doc
}

// TestUpdateKeepsComments: a change through Update (what `pincer model
// refresh`, `/model` and `pincer mcp add` write with) keeps the person's
// comments and adds no empty tables (new user r21 finding 1).
func TestUpdateKeepsComments(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	orig := "# my local setup\ndefault_model = \"local/fake-1\"\n\n[providers.local]\nkind = \"custom\" # a server of mine\nbase_url = \"http://127.0.0.1:8089/v1\"\nrequires_api_key = false\n"
	if err := os.WriteFile(path, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Update(path, func(u *UserFile) error { return u.AddModels("local", "fake-1", "fake-2") }); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(got), orig) || !strings.Contains(string(got), `models = ["fake-1", "fake-2"]`) || strings.Contains(string(got), "[models]") {
		t.Errorf("after AddModels:\n%s", got)
	}
}

// FuzzPatchTOML: whatever the file and the change, the result parses to
// exactly the changed document (or PatchTOML fails to render it).
func FuzzPatchTOML(f *testing.F) {
	f.Add("# c\na = 1\n[t]\nb = \"x\" # y\n", "t", "c", "v")
	f.Add("a.b = 1\n", "a", "c", "2")
	f.Add("[[x]]\na = 1\n", "", "y", "z")
	f.Add("k = [1,\n 2]\n[t.u]\n", "t", "u", "w")
	f.Fuzz(func(t *testing.T, old, tbl, key, val string) {
		doc := map[string]any{}
		if toml.Unmarshal([]byte(old), &doc) != nil {
			return
		}
		target := doc
		if tbl != "" {
			if existing, ok := doc[tbl]; ok && !isMap(existing) {
				return
			}
			target = table(doc, tbl)
		}
		if key == "" {
			return
		}
		if existing, ok := target[key]; ok && isMap(existing) {
			return
		}
		target[key] = val
		out, err := PatchTOML([]byte(old), doc)
		if err != nil {
			return
		}
		got := map[string]any{}
		if err := toml.Unmarshal(out, &got); err != nil {
			t.Fatalf("the result does not parse: %v\n%q", err, out)
		}
		want, _ := normalTOML(doc)
		g, _ := normalTOML(got)
		if !reflect.DeepEqual(g, want) {
			t.Fatalf("the result holds %v, want %v\n%q", g, want, out)
		}
	})
}
