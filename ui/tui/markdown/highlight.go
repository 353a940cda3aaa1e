package markdown

// This is the only file that looks up chroma lexers, through lazylex: the
// lexer registry is built on the first highlight (~5 ms, once per process),
// not in package init, so processes that never highlight (the sandbox
// helper, the store daemon, `--version`) never pay for it. What else is
// deferred:
//   - a lexer's rules are compiled by chroma on its first Tokenise;
//   - the lookup by fence tag is cached per tag (hits and misses alike) —
//     never lexers.Analyse, never a lookup by content;
//   - Prewarm lets the application build the registry and compile the
//     common lexers off the UI goroutine after the first frame.

import (
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/gdamore/tcell/v2"

	"pincer/themes"
	"pincer/ui/tui/markdown/lazylex"
)

var (
	lexMu    sync.Mutex
	lexCache map[string]chroma.Lexer // fence tag -> lexer (nil: unknown)

	styleMu    sync.Mutex
	styleCache = map[styleKey]*tokenStyles{}
)

// lexerFor returns the (coalescing) lexer for a fence tag, or nil. The tag
// is matched against lexer names and aliases, then as a file extension
// ("rs" -> Rust); results are cached per tag.
func lexerFor(lang string) chroma.Lexer {
	if lang == "" {
		return nil
	}
	lexMu.Lock()
	defer lexMu.Unlock()
	if lexCache == nil {
		lexCache = map[string]chroma.Lexer{}
	}
	if l, ok := lexCache[lang]; ok {
		return l
	}
	l := lazylex.Get(lang)
	if l != nil {
		l = chroma.Coalesce(l)
	}
	lexCache[lang] = l
	return l
}

// Prewarm looks up and compiles the lexers for the given fence tags (for
// example "go", "bash", "json") so that the first highlight on the UI
// goroutine does not pay for regular-expression compilation. Call it from a
// goroutine after the first frame.
func Prewarm(langs ...string) {
	for _, lang := range langs {
		if l := lexerFor(strings.ToLower(lang)); l != nil {
			if it, err := l.Tokenise(nil, "x\n"); err == nil {
				for t := it(); t != chroma.EOF; t = it() {
				}
			}
		}
	}
}

type styleKey struct {
	th      *themes.Theme
	noColor bool
}

// tokenStyles maps chroma token types to tcell styles for one theme.
type tokenStyles struct {
	mu    sync.Mutex
	style *chroma.Style
	base  tcell.Style
	m     map[chroma.TokenType]tcell.Style
}

// stylesFor returns the cached token styles of a theme.
func stylesFor(th *themes.Theme) *tokenStyles {
	k := styleKey{th, th.NoColor}
	styleMu.Lock()
	defer styleMu.Unlock()
	ts := styleCache[k]
	if ts == nil {
		if len(styleCache) >= 64 { // themes are few; this only bounds misuse
			clear(styleCache)
		}
		ts = &tokenStyles{style: th.ChromaStyle(), base: th.Style(themes.TokenText), m: map[chroma.TokenType]tcell.Style{}}
		styleCache[k] = ts
	}
	return ts
}

func (ts *tokenStyles) get(th *themes.Theme, tt chroma.TokenType) tcell.Style {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if s, ok := ts.m[tt]; ok {
		return s
	}
	s := th.TcellStyle(ts.style.Get(tt), ts.base)
	ts.m[tt] = s
	return s
}

// hlKey identifies one highlighted code text.
type hlKey struct {
	ts         *tokenStyles
	lang, code string
}

// hlCacheMax bounds the highlight cache; when full it is emptied.
const hlCacheMax = 256

var (
	hlMu    sync.Mutex
	hlCache = map[hlKey][]*styled{}
)

// codeLines returns one styled line per code line (tabs expanded),
// highlighted when lang names a known lexer and plain otherwise. Highlighting
// does not depend on the width, so results are cached by language and text:
// re-wrapping a code block for a new width never re-runs the lexer. When
// partialLast is set (an unclosed fence whose last line is still being
// streamed) the last line is drawn plain and left out of the cache key, so
// deltas inside a line do not re-run the lexer either.
func (p *palette) codeLines(code []string, lang string, partialLast bool) []*styled {
	for k := range code {
		code[k] = expandTabs(code[k])
	}
	lex := lexerFor(lang)
	if lex == nil {
		return p.plainCode(code)
	}
	full := code
	if partialLast && len(code) > 0 {
		full = code[:len(code)-1]
	}
	ts := stylesFor(p.theme)
	key := hlKey{ts: ts, lang: lang, code: strings.Join(full, "\n")}
	hlMu.Lock()
	lines, ok := hlCache[key]
	hlMu.Unlock()
	if !ok {
		lines = p.tokenise(lex, ts, key.code, len(full))
		hlMu.Lock()
		if len(hlCache) >= hlCacheMax {
			clear(hlCache)
		}
		hlCache[key] = lines
		hlMu.Unlock()
	}
	if len(full) == len(code) {
		return lines
	}
	out := make([]*styled, 0, len(code))
	out = append(out, lines...)
	return append(out, p.plainCode(code[len(full):])...)
}

// plainCode styles code lines with the text style only.
func (p *palette) plainCode(code []string) []*styled {
	out := make([]*styled, len(code))
	for k, l := range code {
		out[k] = &styled{}
		out[k].add(l, p.text)
	}
	return out
}

// tokenise runs the lexer over code (n lines joined by newlines) and splits
// the tokens back into lines.
func (p *palette) tokenise(lex chroma.Lexer, ts *tokenStyles, code string, n int) []*styled {
	out := make([]*styled, n)
	for k := range out {
		out[k] = &styled{}
	}
	it, err := lex.Tokenise(nil, code+"\n")
	if err != nil {
		return p.plainCode(strings.Split(code, "\n")[:n])
	}
	k := 0
	for t := it(); t != chroma.EOF; t = it() {
		st := ts.get(p.theme, t.Type)
		v := t.Value
		for v != "" && k < n {
			nl := strings.IndexByte(v, '\n')
			if nl < 0 {
				out[k].add(v, st)
				break
			}
			out[k].add(v[:nl], st)
			v = v[nl+1:]
			k++
		}
	}
	return out
}
