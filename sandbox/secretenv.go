package sandbox

import "strings"

// ProviderKeyEnv are the environment variables pincer's built-in providers read
// their API keys from (core/config's built-in table; a test there checks that
// every name it knows is one of these or matches SecretEnv), plus the keys of
// other services an agent's user commonly has in the environment.
var ProviderKeyEnv = []string{
	"PINCER_API_KEY",
	"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY",
	"DEEPSEEK_API_KEY", "OPENROUTER_API_KEY", "GROQ_API_KEY", "XAI_API_KEY",
	"MISTRAL_API_KEY", "TOGETHER_API_KEY", "FIREWORKS_API_KEY", "PERPLEXITY_API_KEY",
	"COHERE_API_KEY", "AZURE_OPENAI_API_KEY", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN",
}

// secretExact are other variables that hold credentials without a telling
// suffix: cloud keys, forge tokens, pincer's own secret-store key.
var secretExact = []string{
	"AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_ACCESS_KEY_ID", "AWS_SECURITY_TOKEN",
	"GITHUB_TOKEN", "GH_TOKEN", "GITLAB_TOKEN", "NPM_TOKEN", "NODE_AUTH_TOKEN",
	"PINCER_SECRET_KEY", "PINCER_STORE_TOKEN",
	"DATABASE_URL", "GOOGLE_APPLICATION_CREDENTIALS", "MYSQL_PWD",
}

// secretSuffixes and secretInfixes are the name patterns of secret-looking
// variables (compared in upper case): *_API_KEY, *_TOKEN, *_PRIVATE_KEY,
// *_ACCESS_KEY; *SECRET*, *PASSWORD*, *PASSWD*, *CREDENTIAL*.
var (
	secretSuffixes = []string{"_API_KEY", "_APIKEY", "_TOKEN", "_PRIVATE_KEY", "_ACCESS_KEY", "_AUTH"}
	secretInfixes  = []string{"SECRET", "PASSWORD", "PASSWD", "CREDENTIAL"}
)

// SecretEnv reports whether the environment variable named key holds, or may
// hold, a credential: one of ProviderKeyEnv, a known cloud or forge token
// (AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, GITHUB_TOKEN, GH_TOKEN, NPM_TOKEN,
// ...), pincer's own secrets (PINCER_API_KEY, PINCER_SECRET_KEY,
// PINCER_STORE_TOKEN), or a name matching
// *_API_KEY, *_TOKEN, *_PRIVATE_KEY, *_ACCESS_KEY, *SECRET*, *PASSWORD*,
// *CREDENTIAL* (case-insensitive). It errs towards yes: a false positive only
// costs a hook or pincer's own git a variable it did not need.
func SecretEnv(key string) bool {
	k := strings.ToUpper(key)
	for _, n := range ProviderKeyEnv {
		if k == n {
			return true
		}
	}
	for _, n := range secretExact {
		if k == n {
			return true
		}
	}
	for _, s := range secretSuffixes {
		if strings.HasSuffix(k, s) {
			return true
		}
	}
	for _, s := range secretInfixes {
		if strings.Contains(k, s) {
			return true
		}
	}
	// PINCER_PROVIDERS__NAME__API_KEY and similar koanf overrides end in a
	// double-underscore field name.
	return strings.HasPrefix(k, "PINCER_") && (strings.HasSuffix(k, "__API_KEY") || strings.HasSuffix(k, "__KEY"))
}

// WithoutSecrets returns environ (KEY=VALUE entries, as os.Environ gives them)
// without the entries whose key SecretEnv reports, in the same order. Entries
// without "=" are dropped too. The slice given is not changed.
func WithoutSecrets(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		key, _, ok := strings.Cut(kv, "=")
		if !ok || key == "" || SecretEnv(key) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// OwnGitEnv is the environment for a git pincer runs for itself, outside any
// sandbox: environ without secrets (WithoutSecrets) and without inherited
// GIT_CONFIG_COUNT / GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n /
// GIT_CONFIG_PARAMETERS entries, then GitSafeEnv, GIT_CONFIG_NOSYSTEM=1,
// GIT_OPTIONAL_LOCKS=0 and LC_ALL=C. A later entry replaces an earlier one
// with the same key. Use it with GitSafeArgs.
func OwnGitEnv(environ []string) []string {
	var kept []string
	for _, kv := range WithoutSecrets(environ) {
		if strings.HasPrefix(kv, "GIT_CONFIG_COUNT=") || strings.HasPrefix(kv, "GIT_CONFIG_KEY_") ||
			strings.HasPrefix(kv, "GIT_CONFIG_VALUE_") || strings.HasPrefix(kv, "GIT_CONFIG_PARAMETERS=") {
			continue
		}
		kept = append(kept, kv)
	}
	return mergeEnv(append(append(kept, GitSafeEnv()...), "GIT_CONFIG_NOSYSTEM=1", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C"))
}
