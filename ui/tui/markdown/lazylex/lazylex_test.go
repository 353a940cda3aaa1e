package lazylex_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	chromalexers "github.com/alecthomas/chroma/v2/lexers"

	"pincer/ui/tui/markdown/lazylex"
	"pincer/ui/tui/markdown/lazylex/internal/lexgen"
)

// TestEmbeddedUpToDate checks that the embedded definitions are what the
// generator makes from the chroma version in go.mod (run `go generate
// ./ui/tui/markdown/lazylex` after an upgrade).
func TestEmbeddedUpToDate(t *testing.T) {
	defs, _, err := lexgen.Generate(chromaDir(t))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, d := range defs {
		want = append(want, d.File)
		got, err := os.ReadFile(filepath.Join("embedded", d.File))
		if err != nil {
			t.Errorf("%s: %v", d.Name, err)
			continue
		}
		if !bytes.Equal(got, d.XML) {
			t.Errorf("%s differs from the generator's output: run go generate ./ui/tui/markdown/lazylex", d.File)
		}
	}
	if got := lazylex.Files(); !slices.Equal(got, want) {
		t.Errorf("embedded files %d, generator %d: run go generate ./ui/tui/markdown/lazylex", len(got), len(want))
	}
}

// TestEveryDefinitionLoads checks that no embedded definition is left out
// of the registry.
func TestEveryDefinitionLoads(t *testing.T) {
	if got, want := len(lazylex.Registry().Lexers), len(lazylex.Files()); got != want || want < 250 {
		t.Fatalf("%d lexers registered from %d files", got, want)
	}
}

// omittedNames are the lexers of chroma's registry that lazylex lacks.
func omittedNames(t *testing.T) map[string]bool {
	_, omitted, err := lexgen.Generate(chromaDir(t))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, o := range omitted {
		out[o.Name] = true
	}
	return out
}

// TestLookupAsChroma checks every name, alias and file extension chroma
// knows (and common fence tags): lazylex.Get finds the lexer chroma's
// lexers.Get finds, or nothing when that one is one of the omitted lexers.
func TestLookupAsChroma(t *testing.T) {
	omitted := omittedNames(t)
	tags := []string{"go", "golang", "py", "python", "sh", "bash", "shell", "zsh", "console", "json", "yaml", "yml", "toml",
		"js", "javascript", "ts", "typescript", "tsx", "jsx", "rust", "rs", "c", "cpp", "c++", "h", "java", "kotlin", "swift",
		"ruby", "rb", "php", "html", "css", "sql", "diff", "patch", "dockerfile", "makefile", "lua", "zig", "nix", "hcl",
		"proto", "graphql", "xml", "ini", "powershell", "ps1", "text", "plaintext", "md", "markdown", "http", "nosuchlang", "Go", "PYTHON"}
	for _, l := range chromalexers.GlobalLexerRegistry.Lexers {
		c := l.Config()
		tags = append(tags, c.Name)
		tags = append(tags, c.Aliases...)
		for _, f := range c.Filenames {
			if ext, ok := strings.CutPrefix(f, "*."); ok {
				tags = append(tags, ext)
			}
		}
	}
	for _, tag := range tags {
		want := chromalexers.Get(tag)
		got := lazylex.Get(tag)
		switch {
		case want == nil || omitted[want.Config().Name]:
			if got != nil && want == nil {
				t.Errorf("%q: lazylex finds %s, chroma nothing", tag, got.Config().Name)
			}
		case got == nil:
			t.Errorf("%q: lazylex finds nothing, chroma %s", tag, want.Config().Name)
		case got.Config().Name != want.Config().Name:
			t.Errorf("%q: lazylex finds %s, chroma %s", tag, got.Config().Name, want.Config().Name)
		}
	}
}

// TestTokensAsChroma tokenises chroma's own lexer test inputs
// (lexers/testdata/*.actual in the module, the first 4 KiB of each) with
// both registries: the token
// streams must be identical. Go's raw strings are the one known difference
// (see lexgen.Fallbacks): for Go the strings are compared with every
// token inside backquotes merged into one string token.
func TestTokensAsChroma(t *testing.T) {
	inputs, _ := filepath.Glob(filepath.Join(chromaDir(t), "lexers", "testdata", "*.actual"))
	if len(inputs) < 100 {
		t.Fatalf("%d test inputs found", len(inputs))
	}
	omitted := omittedNames(t)
	// Inputs that embed a language lazylex omits (chroma lexes those parts
	// with the omitted lexer, lazylex as plain text).
	embedsOmitted := map[string]string{"Arturo": "markdown", "Org Mode": "EmacsLisp"}
	// Under the race detector (10-20x slower) every fourth input is enough.
	step := 1
	if raceEnabled {
		step = 4
	}
	compared := 0
	for k := 0; k < len(inputs); k += step {
		in := inputs[k]
		tag := strings.TrimSuffix(filepath.Base(in), ".actual")
		want := chromalexers.Get(tag)
		if want == nil || omitted[want.Config().Name] {
			continue
		}
		if sub, ok := embedsOmitted[want.Config().Name]; ok && omitted[sub] {
			continue
		}
		got := lazylex.Get(tag)
		if got == nil {
			t.Errorf("%s: no lexer", tag)
			continue
		}
		text, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		// The first 4 KiB (to a line end) of each: enough to cover the
		// rules, and fast under the race detector.
		if len(text) > 4096 {
			if nl := bytes.IndexByte(text[4096:], '\n'); nl >= 0 {
				text = text[:4096+nl+1]
			}
		}
		// chroma gives each regular-expression match 250 ms and treats a
		// timeout as no match: on a loaded machine (the race detector) one
		// run can differ by chance, a real difference differs every time.
		var wt, gt []chroma.Token
		for range 3 {
			wt, gt = tokens(t, want, string(text)), tokens(t, got, string(text))
			if want.Config().Name == "Go" {
				wt = mergeRawStrings(wt)
			}
			if slices.Equal(wt, gt) {
				break
			}
		}
		if !slices.Equal(wt, gt) {
			k := 0
			for k < min(len(wt), len(gt)) && wt[k] == gt[k] {
				k++
			}
			t.Errorf("%s (%s): tokens differ at %d of %d/%d: chroma %v, lazylex %v", tag, want.Config().Name, k, len(wt), len(gt), wt[k:min(k+3, len(wt))], gt[k:min(k+3, len(gt))])
		}
		compared++
	}
	if compared < 100/step {
		t.Fatalf("only %d inputs compared", compared)
	}
}

func tokens(t *testing.T, l chroma.Lexer, text string) []chroma.Token {
	it, err := chroma.Coalesce(l).Tokenise(nil, text)
	if err != nil {
		t.Fatal(err)
	}
	return it.Tokens()
}

// mergeRawStrings turns chroma's Go tokens of a raw string (a backquote, the
// text-template tokens of its content, a backquote) into the one
// LiteralString token lazylex's Go lexer emits.
func mergeRawStrings(ts []chroma.Token) []chroma.Token {
	var out []chroma.Token
	for k := 0; k < len(ts); k++ {
		if ts[k].Type != chroma.LiteralString || !strings.HasPrefix(ts[k].Value, "`") {
			out = append(out, ts[k])
			continue
		}
		v := ts[k].Value
		for strings.Count(v, "`") < 2 && k+1 < len(ts) {
			k++
			v += ts[k].Value
		}
		if n := len(out); n > 0 && out[n-1].Type == chroma.LiteralString {
			out[n-1].Value += v
		} else {
			out = append(out, chroma.Token{Type: chroma.LiteralString, Value: v})
		}
	}
	return out
}

// chromaDir is the chroma module's directory.
func chromaDir(t *testing.T) string {
	t.Helper()
	dir, err := lexgen.ChromaDir()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}
