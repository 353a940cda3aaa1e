package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/sandbox"
)

// grepBackends returns the backends to test: always the Go fallback, and ripgrep
// when rg is installed. Every Grep case runs on each, so both must agree.
func grepBackends(t testing.TB) map[string]Grep {
	out := map[string]Grep{"fallback": {Backend: GrepFallback}}
	if ripgrepPath() != "" {
		out["ripgrep"] = Grep{Backend: GrepRipgrep}
	} else {
		t.Log("rg not installed: testing the Go fallback only")
	}
	return out
}

// grepFixture builds a tree exercising .gitignore (root and nested, negation,
// anchoring, directories), .git, binary files, hidden files, symlinks and CRLF.
func grepFixture(t testing.TB) (*Env, string) {
	t.Helper()
	env, root := newTestEnv(t)
	files := []struct {
		rel, content string
		age          int // higher is newer; 0 leaves the time alone
	}{
		{".gitignore", "*.log\nbuild/\n/only-root.txt\n", 1},
		{"main.go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"Hello, World\")\n\t// TODO: greet\n}\n", 10},
		{"util.go", "package main\n\nfunc helper() string {\n\treturn \"hello\"\n}\n", 9},
		{"README.md", "# Hello\n\nSay hello to the world.\n", 8},
		{"sub/only-root.txt", "hello sub\n", 7},
		{"sub/keep.log", "hello kept\n", 6},
		{"sub/data.json", "{\"greeting\": \"hello\"}\n", 5},
		{".hidden/conf.yaml", "greeting: hello\n", 4},
		{"crlf.txt", "hello crlf\r\nbye\r\n", 3},
		{"multi.txt", "start\nfoo\nbar\nend\n", 2},
		{"sub/.gitignore", "!keep.log\n", 0},
		{"debug.log", "hello from a log\n", 0},
		{"sub/drop.log", "hello dropped\n", 0},
		{"build/out.go", "hello build\n", 0},
		{"only-root.txt", "hello root\n", 0},
		{".git/config", "hello git\n", 0},
		{"bin.dat", "hello\x00binary\n", 0},
	}
	for _, f := range files {
		writeTestFile(t, root, f.rel, f.content)
		if f.age > 0 {
			setMtime(t, root, f.rel, f.age)
		}
	}
	if err := os.Symlink(filepath.Join(root, "util.go"), filepath.Join(root, "link.go")); err != nil {
		t.Fatal(err)
	}
	return env, root
}

func TestGrep(t *testing.T) {
	yes, no := true, false
	one, two := 1, 2
	tests := []struct {
		name    string
		in      GrepInput
		want    string
		wantErr string
	}{
		{
			name: "files, case-insensitive, newest first",
			in:   GrepInput{Pattern: "hello", IgnoreCase: true},
			want: "Found 8 files\nmain.go\nutil.go\nREADME.md\nsub/only-root.txt\nsub/keep.log\nsub/data.json\n.hidden/conf.yaml\ncrlf.txt",
		},
		{
			name: "case-sensitive by default",
			in:   GrepInput{Pattern: "Hello"},
			want: "Found 2 files\nmain.go\nREADME.md",
		},
		{
			name: "content with line numbers",
			in:   GrepInput{Pattern: "hello", Path: "util.go", OutputMode: GrepContent},
			want: "util.go:4:\treturn \"hello\"",
		},
		{
			name: "content without line numbers",
			in:   GrepInput{Pattern: "hello", Path: "util.go", OutputMode: GrepContent, LineNumbers: &no},
			want: "util.go:\treturn \"hello\"",
		},
		{
			name: "content, explicit -n",
			in:   GrepInput{Pattern: "greeting", OutputMode: GrepContent, LineNumbers: &yes},
			want: ".hidden/conf.yaml:1:greeting: hello\nsub/data.json:1:{\"greeting\": \"hello\"}",
		},
		{
			name: "context around adjacent matches",
			in:   GrepInput{Pattern: "Println|TODO", OutputMode: GrepContent, Context: &one},
			want: "main.go-5-func main() {\nmain.go:6:\tfmt.Println(\"Hello, World\")\nmain.go:7:\t// TODO: greet\nmain.go-8-}",
		},
		{
			name: "before context across files",
			in:   GrepInput{Pattern: "^func", Type: "go", OutputMode: GrepContent, Before: &one},
			want: "main.go-4-\nmain.go:5:func main() {\n--\nutil.go-2-\nutil.go:3:func helper() string {",
		},
		{
			name: "after context with a gap",
			in:   GrepInput{Pattern: "^(package|func)", Path: "main.go", OutputMode: GrepContent, After: &one},
			want: "main.go:1:package main\nmain.go-2-\n--\nmain.go:5:func main() {\nmain.go-6-\tfmt.Println(\"Hello, World\")",
		},
		{
			name: "-A overrides -C",
			in:   GrepInput{Pattern: "TODO", Path: "main.go", OutputMode: GrepContent, Context: &two, After: &one},
			want: "main.go-5-func main() {\nmain.go-6-\tfmt.Println(\"Hello, World\")\nmain.go:7:\t// TODO: greet\nmain.go-8-}",
		},
		{
			name: "count",
			in:   GrepInput{Pattern: "hello", IgnoreCase: true, OutputMode: GrepCount, Glob: "*.{md,go}"},
			want: "README.md:2\nmain.go:1\nutil.go:1\n\nFound 4 matching lines in 3 files.",
		},
		{
			name: "glob by name",
			in:   GrepInput{Pattern: "hello", IgnoreCase: true, Glob: "*.go"},
			want: "Found 2 files\nmain.go\nutil.go",
		},
		{
			name: "negated glob",
			in:   GrepInput{Pattern: "hello", Glob: "!*.{go,md,txt}"},
			want: "Found 3 files\nsub/keep.log\nsub/data.json\n.hidden/conf.yaml",
		},
		{
			name: "anchored glob whitelists over .gitignore (as rg)",
			in:   GrepInput{Pattern: "hello", Glob: "sub/*.log", OutputMode: GrepCount},
			want: "sub/drop.log:1\nsub/keep.log:1\n\nFound 2 matching lines in 2 files.",
		},
		{
			name: "type",
			in:   GrepInput{Pattern: "hello", Type: "json"},
			want: "Found 1 file\nsub/data.json",
		},
		{
			name: "type yaml finds hidden files",
			in:   GrepInput{Pattern: "hello", Type: "yaml"},
			want: "Found 1 file\n.hidden/conf.yaml",
		},
		{
			name: "gitignore in a subdirectory search",
			in:   GrepInput{Pattern: "hello", Path: "sub"},
			want: "Found 3 files\nsub/only-root.txt\nsub/keep.log\nsub/data.json",
		},
		{
			name: "explicit ignored file is searched",
			in:   GrepInput{Pattern: "hello", Path: "debug.log", OutputMode: GrepContent},
			want: "debug.log:1:hello from a log",
		},
		{
			name: "multiline content",
			in:   GrepInput{Pattern: "foo.bar", Multiline: true, OutputMode: GrepContent},
			want: "multi.txt:2:foo\nmulti.txt:3:bar",
		},
		{
			name: "multiline count",
			in:   GrepInput{Pattern: "start.*end", Multiline: true, OutputMode: GrepCount},
			want: "multi.txt:4\n\nFound 4 matching lines in 1 files.",
		},
		{
			name: "without multiline no match spans lines",
			in:   GrepInput{Pattern: "foo.bar"},
			want: "No matches found",
		},
		{
			name: "crlf line shown without CR",
			in:   GrepInput{Pattern: "crlf", OutputMode: GrepContent},
			want: "crlf.txt:1:hello crlf",
		},
		{
			name: "head_limit on files",
			in:   GrepInput{Pattern: "hello", HeadLimit: 2},
			want: "Found 7 files\nutil.go\nREADME.md\n\n(Results truncated by head_limit: showing first 2 of 7.)",
		},
		{
			name: "head_limit on content",
			in:   GrepInput{Pattern: "o|a", Path: "multi.txt", OutputMode: GrepContent, HeadLimit: 2},
			want: "multi.txt:1:start\nmulti.txt:2:foo\n\n(Results truncated by head_limit: showing first 2 of 3.)",
		},
		{name: "no match", in: GrepInput{Pattern: "zebra"}, want: "No matches found"},
		{name: "invalid regex", in: GrepInput{Pattern: "("}, wantErr: "("},
		{name: "unknown type", in: GrepInput{Pattern: "x", Type: "cobol"}, wantErr: "unknown type \"cobol\""},
		{name: "unknown mode", in: GrepInput{Pattern: "x", OutputMode: "lines"}, wantErr: "unknown output_mode"},
		{name: "path outside", in: GrepInput{Pattern: "x", Path: "/etc"}, wantErr: "is outside the workspace"},
		{name: "missing path", in: GrepInput{Pattern: "x", Path: "nope"}, wantErr: "does not exist"},
	}
	for backend, g := range grepBackends(t) {
		env, _ := grepFixture(t)
		for _, tt := range tests {
			t.Run(backend+"/"+tt.name, func(t *testing.T) {
				res, err := runTool(t, g, env, tt.in)
				if tt.wantErr != "" {
					if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
						t.Fatalf("error = %v, want %q", err, tt.wantErr)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if res.Output != tt.want {
					t.Fatalf("output =\n%s\nwant\n%s", res.Output, tt.want)
				}
			})
		}
	}
}

func TestGrepBackendChoice(t *testing.T) {
	env, _ := grepFixture(t)
	in := GrepInput{Pattern: "helper", OutputMode: GrepContent}
	want := "util.go:3:func helper() string {"
	t.Setenv("PATH", t.TempDir()) // no rg here
	if _, err := runTool(t, Grep{Backend: GrepRipgrep}, env, in); err == nil || !strings.Contains(err.Error(), "not installed") {
		t.Fatalf("forced ripgrep without rg: error = %v", err)
	}
	res, err := runTool(t, Grep{}, env, in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != want {
		t.Fatalf("auto without rg = %q, want %q", res.Output, want)
	}
}

func TestGrepLongLinesAndOutputCap(t *testing.T) {
	for backend, g := range grepBackends(t) {
		t.Run(backend, func(t *testing.T) {
			env, root := newTestEnv(t)
			writeTestFile(t, root, "wide.txt", "x"+strings.Repeat("y", 3000)+"\n")
			var many strings.Builder
			for range 5000 {
				many.WriteString("match this line\n")
			}
			writeTestFile(t, root, "many.txt", many.String())
			res, err := runTool(t, g, env, GrepInput{Pattern: "xy", OutputMode: GrepContent})
			if err != nil {
				t.Fatal(err)
			}
			if want := "wide.txt:1:x" + strings.Repeat("y", GrepMaxLineChars-1) + lineTruncatedMarker; res.Output != want {
				t.Errorf("long line: got %d chars", len(res.Output))
			}
			res, err = runTool(t, g, env, GrepInput{Pattern: "match", OutputMode: GrepContent})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Output) > GrepMaxOutputChars+300 || !strings.Contains(res.Output, "of 5000 lines") {
				t.Errorf("output not capped: %d chars, ends %q", len(res.Output), tail(res.Output, 120))
			}
		})
	}
}

// BenchmarkGrepFallback searches a generated tree of 200 files x 500 lines with
// the Go fallback, in content mode.
func BenchmarkGrepFallback(b *testing.B) {
	env, root := newTestEnv(b)
	var sb strings.Builder
	for i := range 500 {
		sb.WriteString("func handler(w http.ResponseWriter, r *http.Request) { // line\n")
		if i%50 == 0 {
			sb.WriteString("\t// TODO: needle here\n")
		}
	}
	content := sb.String()
	for d := range 10 {
		for f := range 20 {
			writeTestFile(b, root, filepath.Join("pkg", string(rune('a'+d)), string(rune('a'+f))+".go"), content)
		}
	}
	writeTestFile(b, root, ".gitignore", "vendor/\n*.tmp\n")
	input := mustJSON(b, GrepInput{Pattern: `TODO: \w+`, OutputMode: GrepContent, HeadLimit: 50})
	g := Grep{Backend: GrepFallback}
	b.SetBytes(int64(len(content) * 200))
	for b.Loop() {
		if _, err := Typed(g).Run(b.Context(), env, input); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGrepGitignoreAboveWorkspace: a workspace inside a git work tree obeys the
// .gitignore files above it, from the top of the work tree down.
func TestGrepGitignoreAboveWorkspace(t *testing.T) {
	for backend, g := range grepBackends(t) {
		t.Run(backend, func(t *testing.T) {
			top := t.TempDir()
			writeTestFile(t, top, ".git/HEAD", "ref: refs/heads/main\n")
			writeTestFile(t, top, ".gitignore", "secret.txt\n/ws/anchored.txt\n")
			writeTestFile(t, top, "ws/secret.txt", "needle\n")
			writeTestFile(t, top, "ws/anchored.txt", "needle\n")
			writeTestFile(t, top, "ws/sub/anchored.txt", "needle\n")
			writeTestFile(t, top, "ws/plain.txt", "needle\n")
			ws, err := sandbox.NewWorkspace(filepath.Join(top, "ws"))
			if err != nil {
				t.Fatal(err)
			}
			env := &Env{Workspace: ws, Files: NewFileState()}
			res, err := runTool(t, g, env, GrepInput{Pattern: "needle", OutputMode: GrepCount})
			if err != nil {
				t.Fatal(err)
			}
			if want := "plain.txt:1\nsub/anchored.txt:1\n\nFound 2 matching lines in 2 files."; res.Output != want {
				t.Fatalf("output =\n%s\nwant\n%s", res.Output, want)
			}
			// Globs stay anchored at the workspace root, not at the work tree's top.
			res, err = runTool(t, g, env, GrepInput{Pattern: "needle", Glob: "sub/*.txt"})
			if err != nil {
				t.Fatal(err)
			}
			if want := "Found 1 file\nsub/anchored.txt"; res.Output != want {
				t.Fatalf("anchored glob: output =\n%s\nwant\n%s", res.Output, want)
			}
		})
	}
}

// TestGrepGitignoreWithoutRepository: .gitignore applies even where there is no
// .git (rg needs --no-require-git for that).
func TestGrepGitignoreWithoutRepository(t *testing.T) {
	for backend, g := range grepBackends(t) {
		t.Run(backend, func(t *testing.T) {
			env, root := newTestEnv(t)
			writeTestFile(t, root, ".gitignore", "gen/\n*.tmp\n")
			writeTestFile(t, root, "gen/x.go", "needle\n")
			writeTestFile(t, root, "a.tmp", "needle\n")
			writeTestFile(t, root, "a.go", "needle\n")
			res, err := runTool(t, g, env, GrepInput{Pattern: "needle"})
			if err != nil {
				t.Fatal(err)
			}
			if want := "Found 1 file\na.go"; res.Output != want {
				t.Fatalf("output =\n%s\nwant\n%s", res.Output, want)
			}
		})
	}
}
