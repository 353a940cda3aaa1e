package agent

import (
	"os"
	"sort"
	"strings"
	"time"

	"pincer/sandbox"
)

// MinRedactLen is the shortest secret value a Redactor replaces, in bytes:
// shorter values ("1", "true", a port) would mangle ordinary output and are
// no real key.
const MinRedactLen = 8

// Redactor replaces the values of known secrets in tool results with
// "[redacted: NAME]" before a result is stored, shown or sent to the provider
// (issue 10, class 14: `cat .env` must not send the API key). It matches exact
// byte strings only: a secret the command transformed (base64, reversed,
// split across a truncation point) is not recognised. The zero value and nil
// redact nothing. Safe for concurrent use.
type Redactor struct {
	r *strings.Replacer
}

// NewRedactor returns a Redactor for secrets, which maps a name (shown in the
// replacement: "OPENAI_API_KEY") to a secret value. Values shorter than
// MinRedactLen (after trimming spaces) are ignored. When two names share a
// value the name that sorts first is shown; a longer value is replaced before
// a shorter one inside it.
func NewRedactor(secrets map[string]string) *Redactor {
	type pair struct{ name, value string }
	byValue := map[string]string{}
	for name, v := range secrets {
		v = strings.TrimSpace(v)
		if len(v) < MinRedactLen {
			continue
		}
		if old, ok := byValue[v]; !ok || name < old {
			byValue[v] = name
		}
	}
	if len(byValue) == 0 {
		return &Redactor{}
	}
	pairs := make([]pair, 0, len(byValue))
	for v, n := range byValue {
		pairs = append(pairs, pair{n, v})
	}
	sort.Slice(pairs, func(i, j int) bool {
		if len(pairs[i].value) != len(pairs[j].value) {
			return len(pairs[i].value) > len(pairs[j].value)
		}
		return pairs[i].value < pairs[j].value
	})
	args := make([]string, 0, 2*len(pairs))
	for _, p := range pairs {
		args = append(args, p.value, "[redacted: "+p.name+"]")
	}
	return &Redactor{r: strings.NewReplacer(args...)}
}

// EnvSecrets returns the secret-looking variables of environ (KEY=VALUE, as
// os.Environ gives them; sandbox.SecretEnv decides) as name → value, for
// NewRedactor.
func EnvSecrets(environ []string) map[string]string {
	out := map[string]string{}
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if ok && k != "" && v != "" && sandbox.SecretEnv(k) {
			out[k] = v
		}
	}
	return out
}

// Redact returns s with every known secret value replaced by
// "[redacted: NAME]".
func (r *Redactor) Redact(s string) string {
	if r == nil || r.r == nil || s == "" {
		return s
	}
	return r.r.Replace(s)
}

// Holds reports whether b holds a secret value r knows (Redact would change it).
func (r *Redactor) Holds(b []byte) bool {
	return r.Active() && len(b) > 0 && r.Redact(string(b)) != string(b)
}

// Active reports whether r knows at least one secret.
func (r *Redactor) Active() bool { return r != nil && r.r != nil }

// maxRedactFile bounds the size of a spilled output file RedactFiles rewrites.
const maxRedactFile = 64 << 20

// RedactFiles rewrites, with secrets redacted, the regular files directly in
// dir modified at or after since: the full outputs a tool spilled there
// (tools.Spill) during a call, so that no copy of a key stays on disk in
// pincer's data directory. dir is entered as an os.Root and symlinks are
// skipped, so a link planted in it is never written through. Errors are
// ignored: the result sent and stored is redacted in any case.
func (r *Redactor) RedactFiles(dir string, since time.Time) {
	if !r.Active() || dir == "" {
		return
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return
	}
	defer root.Close()
	f, err := root.Open(".")
	if err != nil {
		return
	}
	entries, _ := f.ReadDir(-1)
	f.Close()
	for _, e := range entries {
		info, err := root.Lstat(e.Name())
		if err != nil || !info.Mode().IsRegular() || info.ModTime().Before(since.Add(-time.Second)) || info.Size() > maxRedactFile {
			continue
		}
		data, err := root.ReadFile(e.Name())
		if err != nil {
			continue
		}
		red := r.Redact(string(data))
		if red == string(data) {
			continue
		}
		tmp := ".redact-" + newID() + ".tmp"
		if root.WriteFile(tmp, []byte(red), 0o600) != nil || root.Rename(tmp, e.Name()) != nil {
			_ = root.Remove(tmp)
		}
	}
}
