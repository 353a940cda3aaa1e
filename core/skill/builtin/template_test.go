package builtin

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden expansions under testdata/")

// goldenCases are each template filled with fixed data (no git: the
// gatherers have their own tests), compared with testdata/NAME.golden.
var goldenCases = map[string]any{
	"commit": commitData{
		Branch:   "main",
		Status:   []string{"M  a.go", " M b.txt", "?? new.txt"},
		Staged:   Diff{Text: "diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n@@ -1 +1,3 @@\n package a\n+\n+func F() {}\n"},
		Unstaged: Diff{Text: "diff --git a/b.txt b/b.txt\n+x\n", Bytes: 90000, Cut: "[diff cut: 39999 of its 90000 bytes shown; run `git diff` for the rest]"},
		Recent:   []string{"abc1234 tui: the key bar names w/h/l", "def5678 tools: Bash timeout"},
		Args:     "only the Go files",
	},
	"commit-first": commitData{Branch: "main", Status: []string{"A  x.txt"}, Staged: Diff{Text: "+x\n"}},
	"pr": prData{
		Branch: "feature", Base: "origin/main", BaseWhy: "origin/HEAD points to it", MergeBase: "0123456789ab",
		Commits: []string{"1111111 add the feature"}, Stat: " f.txt | 1 +\n 1 file changed, 1 insertion(+)",
		Diff: Diff{Text: "diff --git a/f.txt b/f.txt\n+feature ```fence``` inside\n"}, Dirty: []string{"?? tmp.log"}, HasGh: true,
	},
	"pr-nogh": prData{Branch: "feature", Base: "main", BaseWhy: "first that exists", MergeBase: "0123456789ab",
		Upstream: "origin/feature", Commits: []string{"1111111 add"}, Stat: " f | 1 +", Diff: Diff{Text: "+a\n"}},
	"pr-empty": prData{Branch: "main", Base: "origin/main", BaseWhy: "origin/HEAD points to it", MergeBase: "0123456789ab", HasGh: true, Upstream: "origin/main"},
	"review": changeData{Change: Change{What: "main..HEAD", Range: "main..HEAD", Commits: []string{"2222222 c2"},
		Stat: " f | 2 +-", Diff: Diff{Text: "-a\n+b\n"}}, Focus: "error handling"},
	"review-worktree": changeData{Change: Change{What: "the uncommitted changes, staged and unstaged (git diff HEAD)",
		Untracked: []string{"new.go"}}},
	"simplify": changeData{Change: Change{What: "the uncommitted changes, staged and unstaged (git diff HEAD)",
		Stat: " f | 2 +-", Diff: Diff{Text: "-a\n+b\n"}, Untracked: []string{"new.go"}}},
	"update-config": updateConfigData{Request: "allow go test everywhere", Tool: ConfigEditTool, Files: []configFile{
		{Name: "user config", Path: "/home/u/.config/pincer/config.toml", Format: "toml", Exists: true, Text: "default_model = \"x\"\napi_key = \"<redacted>\"\n"},
		{Name: ".pincer/config.toml", Path: "/w/.pincer/config.toml", Format: "toml", Project: true},
		{Name: ".claude/settings.json", Path: "/w/.claude/settings.json", Format: "json", Project: true, Exists: true,
			Text: "{\"permissions\": {", Err: "/w/.claude/settings.json:1: unexpected end of JSON input"},
	}},
	"update-config-empty": updateConfigData{Tool: ConfigEditTool},
}

func TestTemplatesGolden(t *testing.T) {
	for name, data := range goldenCases {
		t.Run(name, func(t *testing.T) {
			tmpl, _, _ := strings.Cut(name, "-")
			if name == "update-config" || name == "update-config-empty" {
				tmpl = "update-config"
			}
			got, err := render(tmpl, data)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", name+".golden")
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got != string(want) {
				t.Errorf("expansion of %s differs from %s (go test -update to accept):\n%s", name, path, got)
			}
		})
	}
}

func TestFence(t *testing.T) {
	for _, c := range []struct{ lang, in, want string }{
		{"", "a\n", "```\na\n```"},
		{"diff", "x ``` y", "````diff\nx ``` y\n````"},
		{"", "````` five", "``````\n````` five\n``````"},
	} {
		if got := fence(c.lang, c.in); got != c.want {
			t.Errorf("fence(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestEveryBuiltinHasItsTemplateAndWords(t *testing.T) {
	for _, s := range All() {
		if templates().Lookup(s.Name+".md") == nil || s.Description == "" || s.Gathers == "" || s.gather == nil {
			t.Errorf("/%s: template, description, gathers and gatherer are all needed", s.Name)
		}
	}
}
