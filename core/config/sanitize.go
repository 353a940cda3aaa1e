package config

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/knadh/koanf/providers/env/v2"
)

// providerName is what a provider may be called: it is a model ID's first part and a
// TOML table name, so no '/', '.' or spaces.
var providerName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)

// ValidProviderName reports whether name can name a provider.
func ValidProviderName(name string) bool { return providerName.MatchString(name) }

// IsSecretKey reports whether a config key (its last dotted part) names something
// that must live in the secret store, never in a config file: anything containing
// "api_key", "apikey", "secret", "token" or "password" — except requires_api_key (a
// flag) and names ending in "_tokens" (counts such as max_tokens).
func IsSecretKey(key string) bool {
	last := strings.ToLower(key[strings.LastIndex(key, ".")+1:])
	last = strings.ReplaceAll(last, "-", "_")
	if last == "requires_api_key" || strings.HasSuffix(last, "_tokens") {
		return false
	}
	for _, w := range []string{"api_key", "apikey", "secret", "token", "password"} {
		if strings.Contains(last, w) {
			return true
		}
	}
	return false
}

// ValidateBaseURL checks that u is an absolute http(s) URL.
func ValidateBaseURL(u string) error {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return fmt.Errorf("want an http(s) URL such as https://api.example.com/v1, got %q", u)
	}
	return nil
}

// sanitize keeps the keys this package reads from one layer, checking their kinds;
// each bad or refused value is dropped with an *Error. A project layer may not set
// base_url, api or kind.
func sanitize(layer string, m map[string]any, project bool) (map[string]any, []error) {
	out := map[string]any{}
	var warns []error
	bad := func(key string, format string, a ...any) {
		warns = append(warns, &Error{Path: layer, Key: key, Err: fmt.Errorf(format, a...)})
	}
	if v, ok := m["default_model"]; ok {
		s, isStr := v.(string)
		if _, _, valid := ParseModelID(s); isStr && valid {
			out["default_model"] = strings.TrimSpace(s)
		} else {
			bad("default_model", "want \"provider/model\", got %v", v)
		}
	}
	for key := range m {
		if IsSecretKey(key) {
			bad(key, "API keys are not read from config files: use `pincer model set PROVIDER api-key` or the provider's environment variable")
		}
	}
	raw, ok := m["providers"]
	if !ok {
		return out, warns
	}
	provs, ok := raw.(map[string]any)
	if !ok {
		bad("providers", "want a table of providers")
		return out, warns
	}
	clean := map[string]any{}
	for name, v := range provs {
		key := "providers." + name
		if !ValidProviderName(name) {
			bad(key, "a provider name is letters, digits, '-' and '_'")
			continue
		}
		fields, ok := v.(map[string]any)
		if !ok {
			bad(key, "want a table")
			continue
		}
		p := map[string]any{}
		for f, fv := range fields {
			fkey := key + "." + f
			if IsSecretKey(f) {
				bad(fkey, "API keys are not read from config files: use `pincer model set %s api-key` or %s", name, KeyEnv(name)[0])
				continue
			}
			if project && (f == "base_url" || f == "api" || f == "kind") {
				bad(fkey, "ignored: a project file cannot change a provider's endpoint (set it in the user config)")
				continue
			}
			switch f {
			case "kind":
				if s, ok := fv.(string); ok && (s == KindBuiltin || s == KindCustom) {
					p[f] = s
				} else {
					bad(fkey, "want \"builtin\" or \"custom\", got %v", fv)
				}
			case "api":
				if s, ok := fv.(string); ok && oneOf(s, APIs) {
					p[f] = s
				} else {
					bad(fkey, "want one of %s, got %v", strings.Join(APIs, ", "), fv)
				}
			case "base_url":
				s, ok := fv.(string)
				if !ok {
					bad(fkey, "want a string, got %v", fv)
				} else if err := ValidateBaseURL(s); err != nil {
					bad(fkey, "%v", err)
				} else {
					p[f] = s
				}
			case "model":
				if s, ok := fv.(string); ok {
					p[f] = strings.TrimSpace(s)
				} else {
					bad(fkey, "want a string, got %v", fv)
				}
			case "models":
				if list, ok := stringList(fv); ok {
					p[f] = toAny(list)
				} else {
					bad(fkey, "want a list of strings, got %v", fv)
				}
			case "requires_api_key":
				if b, ok := fv.(bool); ok {
					p[f] = b
				} else {
					bad(fkey, "want true or false, got %v", fv)
				}
			}
		}
		clean[name] = p
	}
	if len(clean) > 0 {
		out["providers"] = clean
	}
	return out, warns
}

// oneOf reports whether s is in list.
func oneOf(s string, list []string) bool {
	for _, x := range list {
		if s == x {
			return true
		}
	}
	return false
}

// stringList accepts a list of strings as parsed ([]any) or given ([]string).
func stringList(v any) ([]string, bool) {
	switch l := v.(type) {
	case []string:
		return union(nil, l), true
	case []any:
		out := make([]string, 0, len(l))
		for _, x := range l {
			s, ok := x.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return union(nil, out), true
	}
	return nil, false
}

// applyEnv reads the environment layer through koanf's env provider: PINCER_MODEL
// (or PINCER_DEFAULT_MODEL) → default_model, PINCER_PROVIDERS__NAME__FIELD →
// providers.name.field. In a provider name '_' stands for '-' when that names a
// known provider (PINCER_PROVIDERS__OPENAI_RESPONSES__MODEL). Other PINCER_*
// variables (PINCER_HOME, PINCER_API_KEY, ...) are not configuration and are
// skipped.
func (l *loader) applyEnv(getenv func(string) string, environ func() []string) {
	if environ == nil {
		environ = os.Environ
	}
	names := map[string]bool{"PINCER_MODEL": true, "PINCER_DEFAULT_MODEL": true}
	for _, kv := range environ() {
		if n, _, _ := strings.Cut(kv, "="); strings.HasPrefix(n, "PINCER_PROVIDERS__") {
			names[n] = true
		}
	}
	known := map[string]bool{}
	for n := range builtins {
		known[n] = true
	}
	for n := range l.sources {
		known[n] = true
	}
	prov := env.Provider(".", env.Opt{
		Prefix: "PINCER_",
		EnvironFunc: func() []string {
			var out []string
			for n := range names {
				if v := getenv(n); v != "" {
					out = append(out, n+"="+v)
				}
			}
			return out
		},
		TransformFunc: func(k, v string) (string, any) {
			return envKey(k, v, getenv, known)
		},
	})
	m, err := prov.Read()
	if err != nil {
		l.warns = append(l.warns, &Error{Path: SourceEnvironment, Err: err})
		return
	}
	l.apply(SourceEnvironment, m, false)
}

// envKey maps one PINCER_* variable to a dotted key and a typed value; "" skips it.
func envKey(k, v string, getenv func(string) string, known map[string]bool) (string, any) {
	switch k {
	case "PINCER_MODEL":
		return "default_model", v
	case "PINCER_DEFAULT_MODEL":
		if getenv("PINCER_MODEL") != "" {
			return "", nil // PINCER_MODEL wins
		}
		return "default_model", v
	}
	rest, ok := strings.CutPrefix(k, "PINCER_PROVIDERS__")
	if !ok {
		return "", nil
	}
	name, field, ok := strings.Cut(rest, "__")
	if !ok || name == "" || field == "" {
		return "", nil
	}
	name, field = strings.ToLower(name), strings.ToLower(field)
	if dashed := strings.ReplaceAll(name, "_", "-"); !known[name] && known[dashed] {
		name = dashed
	}
	var val any = v
	switch field {
	case "models":
		val = toAny(strings.Split(v, ","))
	case "requires_api_key":
		if b, err := strconv.ParseBool(v); err == nil {
			val = b
		}
	}
	return "providers." + name + "." + field, val
}

// errSecretKey is returned by writes of a key-like entry.
var errSecretKey = errors.New("API keys never go into config files: use the secret store (`pincer model set PROVIDER api-key`)")
