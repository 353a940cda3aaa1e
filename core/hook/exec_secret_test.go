package hook

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHooksGetNoSecrets: every hook event's command runs with pincer's
// environment minus every secret variable (provider keys, tokens, passwords,
// pincer's own secrets), in whichever way the hook looks for them.
func TestHooksGetNoSecrets(t *testing.T) {
	secrets := map[string]string{
		"OPENAI_API_KEY": "sk-hook-openai-0123456789", "ANTHROPIC_API_KEY": "sk-hook-ant-0123456789",
		"GEMINI_API_KEY": "hook-gem-0123456789", "GOOGLE_API_KEY": "hook-goog-0123456789",
		"OPENROUTER_API_KEY": "hook-or-0123456789", "MY_VLLM_API_KEY": "hook-vllm-0123456789",
		"PINCER_API_KEY": "hook-pk-0123456789", "PINCER_SECRET_KEY": "hook-psk-0123456789",
		"AWS_SECRET_ACCESS_KEY": "hook-aws-0123456789", "AWS_SESSION_TOKEN": "hook-awss-0123456789",
		"GITHUB_TOKEN": "hook-ghp-0123456789", "GH_TOKEN": "hook-gh-0123456789", "NPM_TOKEN": "hook-npm-0123456789",
		"DB_PASSWORD": "hook-pw-0123456789", "APP_CLIENT_SECRET": "hook-cs-0123456789",
		"DEPLOY_PRIVATE_KEY": "hook-priv-0123456789",
	}
	for k, v := range secrets {
		t.Setenv(k, v)
	}
	t.Setenv("HOOK_PLAIN_VAR", "kept")
	proj := t.TempDir()
	// Several ways of reading the environment: env, set, /proc, printenv, a child.
	bodies := map[string]string{
		"env.sh":      `env > "$CLAUDE_PROJECT_DIR/env.out"`,
		"set.sh":      `set > "$CLAUDE_PROJECT_DIR/set.out"`,
		"proc.sh":     `tr '\0' '\n' < /proc/$$/environ > "$CLAUDE_PROJECT_DIR/proc.out"`,
		"printenv.sh": `printenv OPENAI_API_KEY ANTHROPIC_API_KEY GITHUB_TOKEN > "$CLAUDE_PROJECT_DIR/printenv.out"; echo "$HOOK_PLAIN_VAR" >> "$CLAUDE_PROJECT_DIR/printenv.out"`,
		"child.sh":    `sh -c 'env' > "$CLAUDE_PROJECT_DIR/child.out"`,
		"parent.sh":   `tr '\0' '\n' < /proc/$PPID/environ > "$CLAUDE_PROJECT_DIR/parent.out" 2>/dev/null || true`,
	}
	var defs []Def
	for name, body := range bodies {
		defs = append(defs, Def{Command: script(t, proj, name, body)})
	}
	r := runner(t, proj, map[Event][]Def{SessionStart: defs, PreToolUse: defs, PostToolUse: defs, Stop: defs})
	check := func(event string) {
		t.Helper()
		for name := range bodies {
			out := strings.TrimSuffix(name, ".sh") + ".out"
			data, err := os.ReadFile(filepath.Join(proj, out))
			if err != nil {
				continue // parent.out may be unreadable
			}
			for k, v := range secrets {
				if strings.Contains(string(data), v) {
					t.Errorf("%s: %s saw %s", event, name, k)
				}
			}
			_ = os.Remove(filepath.Join(proj, out))
		}
	}
	if got := r.SessionStart(t.Context(), Common{}, "startup"); len(got.Errors) > 0 {
		t.Fatalf("errors: %v", got.Errors)
	}
	check("SessionStart")
	r.PreToolUse(t.Context(), Common{}, "Bash", bashInput, "c")
	check("PreToolUse")
	r.PostToolUse(t.Context(), Common{}, "Bash", bashInput, "c", "", false)
	check("PostToolUse")
	r.Stop(t.Context(), Common{}, false)
	data, err := os.ReadFile(filepath.Join(proj, "printenv.out"))
	if err != nil || !strings.Contains(string(data), "kept") {
		t.Errorf("a plain variable did not reach the hook: %q %v", data, err)
	}
	check("Stop")
}

// TestHooksKeepPrivateCaches (red team r24c F2): with a cache dir, a hook's
// npm, uv, pip, Go and XDG caches are under it, whatever pincer inherited.
func TestHooksKeepPrivateCaches(t *testing.T) {
	t.Setenv("npm_config_cache", "/person/npm")
	proj, caches := t.TempDir(), t.TempDir()
	def := Def{Command: script(t, proj, "env.sh", `env > "$CLAUDE_PROJECT_DIR/env.out"`)}
	r := runner(t, proj, map[Event][]Def{SessionStart: {def}})
	r.SetCacheDir(caches)
	if got := r.SessionStart(t.Context(), Common{}, "startup"); len(got.Errors) > 0 {
		t.Fatalf("errors: %v", got.Errors)
	}
	data, _ := os.ReadFile(filepath.Join(proj, "env.out"))
	for _, want := range []string{"PYTHONSAFEPATH=1", "npm_config_cache=" + filepath.Join(caches, "npm"), "XDG_CACHE_HOME=" + filepath.Join(caches, "xdg"), "UV_CACHE_DIR=" + filepath.Join(caches, "uv")} {
		if !strings.Contains(string(data), want+"\n") {
			t.Errorf("the hook's environment lacks %s:\n%s", want, data)
		}
	}
	if strings.Contains(string(data), "/person/npm") {
		t.Errorf("the inherited npm cache reached the hook:\n%s", data)
	}
}

// TestHookPythonImportsNoProjectModule (red team r24d F2): a hook's
// `python3 -c 'import json …'`, run in the project, does not import a
// json.py the model wrote there (PYTHONSAFEPATH; Python 3.11+).
func TestHookPythonImportsNoProjectModule(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	if out, err := exec.Command(py, "-c", "import sys; print(sys.version_info >= (3, 11))").Output(); err != nil || strings.TrimSpace(string(out)) != "True" {
		t.Skip("python3 older than 3.11: no PYTHONSAFEPATH")
	}
	proj := t.TempDir()
	marker := filepath.Join(t.TempDir(), "PROOF_json")
	if err := os.WriteFile(filepath.Join(proj, "json.py"), []byte("open("+strconvQuote(marker)+", 'w').write('ran')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	def := Def{Command: `python3 -c 'import json, sys; json.load(sys.stdin)'`}
	r := runner(t, proj, map[Event][]Def{PreToolUse: {def}})
	r.PreToolUse(t.Context(), Common{}, "Bash", bashInput, "c")
	if _, err := os.Stat(marker); err == nil {
		t.Error("ESCAPE: the hook's python imported the project's json.py")
	}
}

// strconvQuote is a Python string literal of s (no quotes or backslashes in it).
func strconvQuote(s string) string { return "'" + s + "'" }
