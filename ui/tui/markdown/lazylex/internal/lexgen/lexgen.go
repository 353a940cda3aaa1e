// Package lexgen turns chroma's lexer registry into the XML lexer
// definitions that package lazylex embeds. Only the generator
// (lazylex/gen) and lazylex's tests import it: it links
// github.com/alecthomas/chroma/v2/lexers, whose package init registers every
// lexer, which is the cost pincer's binary must not pay.
package lexgen

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// Definition is one lexer as lazylex embeds it.
type Definition struct {
	Name string // chroma's lexer name ("Go")
	File string // file name under lazylex/embedded, uncompressed ("go.xml")
	XML  []byte // the definition
	// Substituted is set when rules holding a Go function (an emitter chroma
	// cannot serialise) were replaced by a plain token type (see Fallbacks).
	Substituted bool
}

// Omitted is one lexer of chroma's registry that lazylex does not carry, with
// the reason (it is not a regular-expression lexer, or one of its rules is Go
// code and no fallback is configured, or its serialisation does not load).
type Omitted struct {
	Name   string
	Reason string
}

// Fallbacks names the lexers whose rules that chroma cannot serialise (a Go
// function emitter) are kept with a plain token type instead: Go's raw string
// rule highlights the string as a Go text template in chroma; lazylex's Go
// lexer shows it as a string.
var Fallbacks = map[string]chroma.TokenType{
	"Go": chroma.LiteralString,
}

// ChromaDir returns the directory of the chroma module in go.mod (from `go
// list -m`; the module must be downloaded).
func ChromaDir() (string, error) {
	var stderr strings.Builder
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/alecthomas/chroma/v2")
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list -m github.com/alecthomas/chroma/v2: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		return "", errors.New("the chroma module is not downloaded (go mod download)")
	}
	return dir, nil
}

// Generate returns a definition of every lexer of chroma's global registry
// that can have one, sorted by file name, and lists the ones that cannot. A
// lexer chroma itself defines in XML (lexers/embedded under chromaDir, the
// module's directory) keeps chroma's file byte for byte; a lexer written in
// Go is serialised with chroma.Marshal, its states in name order. It fails
// if two lexers would share a file name.
func Generate(chromaDir string) ([]Definition, []Omitted, error) {
	xmlFiles, err := chromaXML(filepath.Join(chromaDir, "lexers", "embedded"))
	if err != nil {
		return nil, nil, err
	}
	var defs []Definition
	var omitted []Omitted
	files := map[string]string{}
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		name := l.Config().Name
		rl, ok := l.(*chroma.RegexLexer)
		if !ok {
			omitted = append(omitted, Omitted{name, fmt.Sprintf("not a regular-expression lexer (%T)", l)})
			continue
		}
		def := Definition{Name: name, File: FileName(name)}
		if data, ok := xmlFiles[name]; ok {
			def.XML = data
		} else {
			def.XML, def.Substituted, err = marshalGo(rl)
			if err != nil {
				omitted = append(omitted, Omitted{name, err.Error()})
				continue
			}
		}
		if other, dup := files[def.File]; dup {
			return nil, nil, fmt.Errorf("lexers %q and %q both map to %s", other, name, def.File)
		}
		files[def.File] = name
		defs = append(defs, def)
	}
	sort.Slice(defs, func(i, j int) bool { return defs[i].File < defs[j].File })
	sort.Slice(omitted, func(i, j int) bool { return omitted[i].Name < omitted[j].Name })
	return defs, omitted, nil
}

// chromaXML reads chroma's XML lexer files, keyed by the lexer name in their
// <config>.
func chromaXML(dir string) (map[string][]byte, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.xml"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no XML lexers in %s", dir)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		l, err := chroma.NewXMLLexer(os.DirFS(dir), filepath.Base(p))
		if err != nil {
			return nil, err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		out[l.Config().Name] = data
	}
	return out, nil
}

// marshalGo serialises a lexer written in Go with chroma.Marshal, its states
// sorted by name (chroma writes a map's states in random order). A lexer in
// Fallbacks has its rules that hold Go code given the fallback token type
// (substituted is then true). The result must load and tokenise an empty
// text.
func marshalGo(rl *chroma.RegexLexer) (data []byte, substituted bool, err error) {
	rules, err := rl.Rules()
	if err != nil {
		return nil, false, err
	}
	rules = rules.Clone()
	if tt, ok := Fallbacks[rl.Config().Name]; ok {
		for state, rs := range rules {
			for k, r := range rs {
				probe := chroma.MustNewLexer(&chroma.Config{Name: "probe"}, func() chroma.Rules { return chroma.Rules{"root": {r}} })
				if _, err := chroma.Marshal(probe); errors.Is(err, chroma.ErrNotSerialisable) {
					rules[state][k].Type = tt
					substituted = true
				}
			}
		}
	}
	cfg := *rl.Config()
	data, err = chroma.Marshal(chroma.MustNewLexer(&cfg, func() chroma.Rules { return rules }))
	if err != nil {
		return nil, false, err
	}
	data, err = sortStates(data)
	if err != nil {
		return nil, false, err
	}
	l, err := chroma.Unmarshal(data)
	if err == nil {
		_, err = l.Tokenise(nil, "")
	}
	if err != nil {
		return nil, false, fmt.Errorf("its serialisation does not load: %w", err)
	}
	return data, substituted, nil
}

// sortStates reorders the <state> elements of chroma.Marshal's indented
// output by their opening lines (`    <state name="...">`, each state
// beginning at that indentation) and ends the text with a newline.
func sortStates(data []byte) ([]byte, error) {
	lines := strings.SplitAfter(string(data), "\n")
	open, closing := -1, -1
	for k, l := range lines {
		switch strings.TrimRight(l, "\n") {
		case "  <rules>":
			open = k
		case "  </rules>":
			closing = k
		}
	}
	if open < 0 || closing < open {
		return nil, errors.New("unexpected serialisation: no <rules> element")
	}
	var states [][]string
	for _, l := range lines[open+1 : closing] {
		if strings.HasPrefix(l, "    <state ") {
			states = append(states, nil)
		}
		if len(states) == 0 {
			return nil, errors.New("unexpected serialisation: text before the first <state>")
		}
		states[len(states)-1] = append(states[len(states)-1], l)
	}
	sort.Slice(states, func(i, j int) bool { return states[i][0] < states[j][0] })
	var b strings.Builder
	for _, l := range lines[:open+1] {
		b.WriteString(l)
	}
	for _, st := range states {
		for _, l := range st {
			b.WriteString(l)
		}
	}
	for _, l := range lines[closing:] {
		b.WriteString(l)
	}
	if !strings.HasSuffix(b.String(), "\n") {
		b.WriteByte('\n')
	}
	return []byte(b.String()), nil
}

// FileName is the embedded file of a lexer: its name lower-cased, every
// character other than a letter, digit, '+' or '-' turned into '_', then
// ".xml" ("Go Text Template" -> "go_text_template.xml", "C++" -> "c++.xml").
func FileName(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '+', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String() + ".xml"
}
