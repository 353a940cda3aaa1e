// Package lazylex is chroma's lexer registry built on first use instead of in
// package init.
//
// Importing github.com/alecthomas/chroma/v2/lexers registers all of its ~300
// lexers in that package's init (parsing every embedded XML header and
// compiling the analyser regular expressions: ~4.8 ms and 2.7 MB of
// allocations), and Go runs every linked package's init before main — in
// every pincer process, the sandbox helper and `--version` included. pincer
// therefore never links that package: this one embeds the same lexer
// definitions (chroma's XML files, and the lexers chroma writes in Go
// serialised by ./gen) and registers them into a chroma.LexerRegistry the first time a lexer is
// asked for. Lookups then behave as chroma's lexers.Get does (the registry
// is chroma's own type, so Using() references between lexers resolve too).
//
// Lexers chroma cannot serialise (those built in Go: markdown, HTTP, ERB,
// PHTML, Svelte, YAML+Jinja, Go HTML Template, Common Lisp, EmacsLisp, Raku,
// reStructuredText, Haxe) are absent: their fence tags are shown plain. Go's
// one rule written in Go (a raw string highlighted as a text template) is
// kept as a plain string.
package lazylex

import (
	"embed"
	"io/fs"
	"path"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

//go:embed embedded/*.xml
var embedded embed.FS

var (
	once     sync.Once
	registry *chroma.LexerRegistry
)

// Registry returns the registry of every embedded lexer, registering them on
// the first call (what chroma's lexers package does in its init: ~5 ms;
// safe from any goroutine). A lexer's rules are
// compiled by chroma on its first Tokenise.
func Registry() *chroma.LexerRegistry {
	once.Do(func() { registry = build() })
	return registry
}

// Get returns the lexer for a name, alias, file extension ("rs") or file
// name, as chroma's lexers.Get does, or nil when there is none.
func Get(name string) chroma.Lexer {
	return Registry().Get(name)
}

// build registers every embedded definition; one that does not load is left
// out (TestEveryDefinitionLoads keeps that from happening).
func build() *chroma.LexerRegistry {
	reg := chroma.NewLexerRegistry()
	for _, name := range Files() {
		if l, err := chroma.NewXMLLexer(embedded, path.Join("embedded", name)); err == nil {
			reg.Register(l)
		}
	}
	return reg
}

// Files lists the embedded definitions by file name ("go.xml"), sorted.
func Files() []string {
	entries, _ := fs.ReadDir(embedded, "embedded")
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
