package sandbox

import (
	"slices"
	"strings"
	"testing"
)

func TestSecretEnv(t *testing.T) {
	secret := []string{
		"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "DEEPSEEK_API_KEY",
		"OPENROUTER_API_KEY", "GROQ_API_KEY", "XAI_API_KEY", "MISTRAL_API_KEY", "MY_VLLM_API_KEY",
		"openai_api_key", "PINCER_API_KEY", "PINCER_SECRET_KEY", "PINCER_STORE_TOKEN",
		"PINCER_PROVIDERS__OPENAI__API_KEY", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_ACCESS_KEY_ID",
		"GITHUB_TOKEN", "GH_TOKEN", "NPM_TOKEN", "CI_JOB_TOKEN", "SLACK_BOT_TOKEN", "DB_PASSWORD",
		"PGPASSWORD", "MYSQL_PWD_PASSWORD", "CLIENT_SECRET", "SECRET", "JWT_SECRET_KEY", "DEPLOY_PRIVATE_KEY",
		"AZURE_CLIENT_SECRET", "GOOGLE_APPLICATION_CREDENTIALS", "DATABASE_URL", "HF_TOKEN",
	}
	for _, k := range secret {
		if !SecretEnv(k) {
			t.Errorf("SecretEnv(%q) = false", k)
		}
	}
	plain := []string{"PATH", "HOME", "USER", "LANG", "LC_ALL", "TERM", "GOPATH", "GOCACHE", "PINCER_HOME",
		"PINCER_MODEL", "PINCER_NO_DAEMON", "EDITOR", "SHELL", "TOKENIZERS_PARALLELISM", "KEYBOARD", "PWD"}
	for _, k := range plain {
		if SecretEnv(k) {
			t.Errorf("SecretEnv(%q) = true", k)
		}
	}
}

func TestWithoutSecrets(t *testing.T) {
	in := []string{"PATH=/bin", "OPENAI_API_KEY=sk-x", "HOME=/h", "GH_TOKEN=g", "novalue", "=x", "A=b=c"}
	got := WithoutSecrets(in)
	if want := []string{"PATH=/bin", "HOME=/h", "A=b=c"}; !slices.Equal(got, want) {
		t.Errorf("WithoutSecrets = %q, want %q", got, want)
	}
	if in[1] != "OPENAI_API_KEY=sk-x" {
		t.Error("the input was changed")
	}
}

func TestOwnGitEnv(t *testing.T) {
	env := OwnGitEnv([]string{"PATH=/bin", "ANTHROPIC_API_KEY=k", "GIT_CONFIG_COUNT=1",
		"GIT_CONFIG_KEY_0=core.fsmonitor", "GIT_CONFIG_VALUE_0=/evil", "GIT_CONFIG_PARAMETERS='core.pager'='evil'", "LC_ALL=fr_FR"})
	joined := strings.Join(env, "\n")
	for _, bad := range []string{"ANTHROPIC", "/evil", "GIT_CONFIG_PARAMETERS", "fr_FR"} {
		if strings.Contains(joined, bad) {
			t.Errorf("OwnGitEnv kept %q:\n%s", bad, joined)
		}
	}
	for _, want := range []string{"PATH=/bin", "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0",
		"GIT_CONFIG_KEY_0=core.fsmonitor", "GIT_CONFIG_VALUE_0=false", "LC_ALL=C"} {
		if !slices.Contains(env, want) {
			t.Errorf("OwnGitEnv lacks %q:\n%s", want, joined)
		}
	}
}
