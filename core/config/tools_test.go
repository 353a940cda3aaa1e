package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestToolsTable: [tools] search is read from the user's file and the
// project's (the project's wins), with its file and line; a value that is no
// string, or an unknown key, is a warning and left out; [tools] is a known
// top-level key.
func TestToolsTable(t *testing.T) {
	home, _, ws, read := readFixture(t)
	for _, tc := range []struct {
		user, project string
		want          string
		line, warns   int
	}{
		{"", "", "", 0, 0},
		{"[tools]\nsearch = \"always\"\n", "", "always", 2, 0},
		{"[tools]\nsearch = \"always\"\n", "\n[tools]\n\nsearch = \"never\"\n", "never", 4, 0},
		{"[tools]\nsearch = 10\n", "", "", 0, 1},
		{"[tools]\nserch = \"auto\"\n", "", "", 0, 1},
		{"tools = 3\n", "", "", 0, 1},
	} {
		write(t, filepath.Join(home, "config.toml"), tc.user)
		write(t, ProjectPath(ws), tc.project)
		src, fatal := read()
		if len(fatal) != 0 {
			t.Fatal(fatal)
		}
		got, errs := src.Tools()
		if got.Search.Text != tc.want || got.Search.Line != tc.line || len(errs) != tc.warns {
			t.Errorf("%q + %q: %+v, warnings %v; want %q at line %d, %d warnings", tc.user, tc.project, got, errs, tc.want, tc.line, tc.warns)
		}
		if tc.want == "never" && !strings.HasSuffix(got.SearchPath, filepath.Join(".pincer", "config.toml")) {
			t.Errorf("path %q", got.SearchPath)
		}
		for _, w := range src.Errors() {
			if strings.Contains(w.Error(), `unknown key "tools"`) {
				t.Errorf("[tools] reported as unknown: %v", w)
			}
		}
	}
}
