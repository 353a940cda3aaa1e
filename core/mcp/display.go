package mcp

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"pincer/sandbox"
)

// Written is a server's entry as its file spells it, before ${VAR} and
// ${VAR:-default} expansion (config.MCPWritten, converted): what every view of
// the entry shows, so that a value the environment fills in — a secret the
// entry forwards — never reaches the terminal.
type Written struct {
	Command string
	Args    []string
	Env     map[string]string
	URL     string
	Headers map[string]string
}

// written is c's entry as written; a config built in code (no file, so no
// expansion: tests, mcptest) is its own.
func (c ServerConfig) written() Written {
	w := c.Written
	if w.Command == "" && w.URL == "" {
		return Written{Command: c.Command, Args: c.Args, Env: c.Env, URL: c.URL, Headers: c.Headers}
	}
	return w
}

// CommandLine is what the server runs or reaches, as `pincer mcp
// list|get|approve`, the /mcp view and its approval question show it: the
// entry as written (Written) — ${VAR} references unexpanded, each word quoted
// for a POSIX shell where needed, then the env entries (NAME=VALUE) it adds; or
// the URL and its headers (Name: value). A literal value whose name looks
// secret (Authorization, *TOKEN*, *KEY*, *SECRET*, ...; a URL's api_key=,
// token=, a password in user:password@) is shown as ****. Control characters
// and bidi marks are shown escaped (\u202e, \u001b), never passed on nor
// dropped. Warnings says what deserves a second look.
func (c ServerConfig) CommandLine() string {
	w := c.written()
	var b strings.Builder
	if c.Transport == TransportStdio || w.Command != "" {
		b.WriteString(displayWord(w.Command))
		for _, a := range w.Args {
			b.WriteByte(' ')
			b.WriteString(displayWord(a))
		}
		if names := sortedKeys(w.Env); len(names) > 0 {
			parts := make([]string, len(names))
			for i, n := range names {
				parts[i] = visible(n) + "=" + displayWord(displayValue(n, w.Env[n]))
			}
			b.WriteString("  (env: " + strings.Join(parts, ", ") + ")")
		}
		return b.String()
	}
	b.WriteString(visible(displayURL(w.URL)))
	if names := sortedKeys(w.Headers); len(names) > 0 {
		parts := make([]string, len(names))
		for i, n := range names {
			parts[i] = visible(n) + ": " + displayWord(displayValue(n, w.Headers[n]))
		}
		b.WriteString("  (headers: " + strings.Join(parts, ", ") + ")")
	}
	return b.String()
}

// Warnings are the lines an approval shows under CommandLine, one per
// finding, in order: each env entry that changes how the server's program
// loads code (NODE_OPTIONS, LD_PRELOAD, PYTHONPATH, ...: LoaderEnv); each of
// the person's secret variables (sandbox.SecretEnv) the entry forwards, and
// where to; each literal value shown masked. nil when there is nothing to say.
func (c ServerConfig) Warnings() []string {
	w := c.written()
	var out []string
	for _, n := range sortedKeys(w.Env) {
		if LoaderEnv(n) {
			out = append(out, fmt.Sprintf("%s=%s changes how the server's program loads code (it can make it run any file): check it before approving",
				visible(n), displayWord(displayValue(n, w.Env[n]))))
		}
	}
	forwards := func(value, where string) {
		for _, v := range references(value) {
			if sandbox.SecretEnv(v) {
				out = append(out, fmt.Sprintf("sends your %s to the server (%s)", visible(v), where))
			}
		}
	}
	forwards(w.Command, "in its command")
	for i, a := range w.Args {
		forwards(a, fmt.Sprintf("in argument %d", i+1))
	}
	for _, n := range sortedKeys(w.Env) {
		forwards(w.Env[n], "as env "+visible(n))
	}
	forwards(w.URL, "in the url")
	for _, n := range sortedKeys(w.Headers) {
		forwards(w.Headers[n], "as header "+visible(n))
	}
	masked := func(kind string, m map[string]string) {
		for _, n := range sortedKeys(m) {
			if displayValue(n, m[n]) != m[n] {
				out = append(out, fmt.Sprintf("%s %s holds a literal value, shown as ****: a credential written into the file", kind, visible(n)))
			}
		}
	}
	masked("env", w.Env)
	masked("header", w.Headers)
	if displayURL(w.URL) != w.URL {
		out = append(out, "the url holds a literal credential, shown as ****")
	}
	return out
}

// Redact replaces in s (a failure reason, which may quote the URL the client
// dialled or a value the server echoed) each value of c that expansion or
// masking changed with its display: the expanded URL, env and header values
// become what CommandLine shows. Values under 4 bytes are left alone.
func (c ServerConfig) Redact(s string) string {
	w := c.written()
	type pair struct{ from, to string }
	var pairs []pair
	add := func(expanded, written, shown string) {
		if len(expanded) >= 4 && (expanded != written || shown != written) {
			pairs = append(pairs, pair{expanded, shown})
		}
	}
	add(c.URL, w.URL, displayURL(w.URL))
	add(c.Command, w.Command, w.Command)
	for i, a := range c.Args {
		if i < len(w.Args) {
			add(a, w.Args[i], w.Args[i])
		}
	}
	for _, m := range []struct{ got, wrote map[string]string }{{c.Env, w.Env}, {c.Headers, w.Headers}} {
		for n, v := range m.got {
			add(v, m.wrote[n], displayValue(n, m.wrote[n]))
		}
	}
	sort.Slice(pairs, func(i, j int) bool { return len(pairs[i].from) > len(pairs[j].from) })
	for _, p := range pairs {
		s = strings.ReplaceAll(s, p.from, p.to)
	}
	return visible(s)
}

// loaderExact and loaderPrefixes are the environment variables (compared in
// upper case) that change how a program loads code: preloads, module search
// paths, interpreter start-up files and options, shell start-up files, and
// the search path of programs.
var (
	loaderExact = []string{
		"NODE_OPTIONS", "NODE_PATH", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PYTHONUSERBASE", "PYTHONINSPECT",
		"BASH_ENV", "ENV", "ZDOTDIR", "PROMPT_COMMAND", "SHELLOPTS", "PERL5OPT", "PERL5LIB", "PERLLIB",
		"RUBYOPT", "RUBYLIB", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH",
		"DOTNET_STARTUP_HOOKS", "GCONV_PATH", "PATH", "GIT_SSH_COMMAND", "GIT_EXEC_PATH", "GIT_CONFIG_GLOBAL",
		"GIT_CONFIG_SYSTEM", "NPM_CONFIG_USERCONFIG", "NPM_CONFIG_REGISTRY", "PIP_INDEX_URL", "UV_INDEX_URL",
		"GOFLAGS", "RUSTC_WRAPPER",
		// Where a program reads a configuration that can name code to run (red team 2).
		"HOME", "XDG_CONFIG_HOME", "GIT_ASKPASS", "SSH_ASKPASS", "SSH_ASKPASS_REQUIRE", "PAGER", "GIT_PAGER",
		"EDITOR", "VISUAL", "GIT_EDITOR", "AWS_CONFIG_FILE", "DOCKER_CONFIG", "PIP_CONFIG_FILE", "UV_CONFIG_FILE",
		"BUN_OPTIONS", "DENO_OPTIONS", "CC", "CXX", "GOTOOLCHAIN", "GOENV", "CARGO_HOME", "RUSTUP_HOME",
		"GEM_HOME", "GEM_PATH", "BUNDLE_GEMFILE", "COMPOSER_HOME", "GNUPGHOME", "KUBECONFIG",
	}
	loaderPrefixes = []string{"LD_", "DYLD_", "CORECLR_", "COR_PROFILER", "GIT_CONFIG_", "NPM_CONFIG_", "YARN_", "PNPM_"}
)

// LoaderEnv reports whether the environment variable named name changes how
// a program loads code (NODE_OPTIONS=--require, LD_PRELOAD, LD_LIBRARY_PATH,
// PYTHONPATH, PYTHONSTARTUP, DYLD_*, BASH_ENV, ENV, PERL5OPT, RUBYOPT,
// JAVA_TOOL_OPTIONS, PATH, ...), case-insensitively: an approval calls it out.
func LoaderEnv(name string) bool {
	n := strings.ToUpper(name)
	for _, e := range loaderExact {
		if n == e {
			return true
		}
	}
	for _, p := range loaderPrefixes {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

// secretName reports whether a header or env name looks like it holds a
// credential: sandbox.SecretEnv's names, and any holding AUTH, KEY, TOKEN,
// SECRET, PASSWORD, PASSWD, COOKIE, SESSION or CREDENTIAL (Authorization,
// X-Api-Key, Proxy-Authorization, ...).
func secretName(name string) bool {
	if sandbox.SecretEnv(name) {
		return true
	}
	n := strings.ToUpper(name)
	for _, w := range []string{"AUTH", "KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "COOKIE", "SESSION", "CREDENTIAL", "SIGNATURE"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// reference is a ${VAR} or ${VAR:-default} reference, as core/config expands.
var reference = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}`)

// references are the variable names v refers to, in order.
func references(v string) []string {
	var out []string
	for _, m := range reference.FindAllStringSubmatch(v, -1) {
		out = append(out, m[1])
	}
	return out
}

// authScheme is an Authorization value's leading scheme, shown as written.
var authScheme = regexp.MustCompile(`^(?i:bearer|basic|token|bot|digest) +`)

// displayValue is an env or header value for display: as written, but when
// name looks secret each literal run — not a ${VAR} reference, nor a leading
// "Bearer " — is ****. A loader variable (LoaderEnv: GIT_CONFIG_KEY_0,
// NODE_OPTIONS, ...) is never masked: the person must see what it makes run.
func displayValue(name, v string) string {
	if !secretName(name) || v == "" || LoaderEnv(name) { // a loader variable is shown: the approval must see what it runs
		return v
	}
	scheme := authScheme.FindString(v)
	return scheme + maskLiterals(v[len(scheme):])
}

// maskLiterals replaces each run of v outside ${VAR} references with ****.
func maskLiterals(v string) string {
	var b strings.Builder
	last := 0
	for _, loc := range reference.FindAllStringIndex(v, -1) {
		if loc[0] > last {
			b.WriteString("****")
		}
		b.WriteString(v[loc[0]:loc[1]])
		last = loc[1]
	}
	if last < len(v) {
		b.WriteString("****")
	}
	return b.String()
}

// urlUserinfo and urlSecretParam find a URL's password (scheme://user:PASS@)
// and its query parameters whose names look secret (?api_key=VALUE).
var (
	urlUserinfo    = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]*://[^/?#@:]*:)([^/?#@]*)@`)
	urlSecretParam = regexp.MustCompile(`([?&;])([^=&;#]*)=([^&;#]*)`)
)

// displayURL is a written URL with its literal credentials masked.
func displayURL(u string) string {
	u = urlUserinfo.ReplaceAllStringFunc(u, func(m string) string {
		p := urlUserinfo.FindStringSubmatch(m)
		return p[1] + maskLiterals(p[2]) + "@"
	})
	return urlSecretParam.ReplaceAllStringFunc(u, func(m string) string {
		p := urlSecretParam.FindStringSubmatch(m)
		if !secretName(p[2]) || p[3] == "" {
			return m
		}
		return p[1] + p[2] + "=" + maskLiterals(p[3])
	})
}

// displayWord is w quoted for a POSIX shell when it holds anything but safe
// characters (a ${VAR} reference counts as safe: pincer fills it in), its
// control characters and bidi marks escaped.
func displayWord(w string) string {
	w = visible(w)
	if w != "" && strings.IndexFunc(w, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(`-_./:=@+,%${}\`, r))
	}) < 0 {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// visible is s with every rune a terminal would act on or hide — control
// characters, bidi marks and other format characters (U+202E, U+200B, U+FEFF,
// ...) — written as \uXXXX, and each byte of invalid UTF-8 as \xNN: marked,
// never dropped, so the display cannot be reordered or cleared and a hidden
// character still shows.
func visible(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || hiddenRune(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case hiddenRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// hiddenRune reports a control character, or a format character (Unicode Cf:
// bidi embeddings, overrides and isolates, zero-width spaces and joiners, the
// byte-order mark), or a line or paragraph separator.
func hiddenRune(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
