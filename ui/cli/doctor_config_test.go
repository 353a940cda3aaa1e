package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoctorConfigAndModel: doctor's Config section names a broken project
// config.toml with its FILE:LINE:COL and doctor exits 1; its Model section
// reports a keyless custom provider as needing no key; a clean configuration
// exits 0 and the absent files are a count unless --verbose.
func TestDoctorConfigAndModel(t *testing.T) {
	ws := userConfig(t, "[providers.local]\nkind = \"custom\"\nbase_url = \"http://127.0.0.1:1/v1\"\nrequires_api_key = false\n")
	t.Setenv("PINCER_MODEL", "local/qwen")
	t.Setenv("PINCER_API_KEY", "")
	t.Setenv("OPENAI_API_KEY", "")
	t.Chdir(ws)
	run := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := Main(append([]string{"doctor"}, args...), strings.NewReader(""), &out, &errb)
		return code, out.String() + errb.String()
	}
	code, out := run()
	for _, want := range []string{"Config:", "user config: OK", "more absent (--verbose lists them)", "model: local/qwen", "API key: not needed", "more paths, absent here"} {
		if !strings.Contains(out, want) {
			t.Errorf("clean doctor lacks %q:\n%s", want, out)
		}
	}
	if code != 0 || strings.Contains(out, "needs a key") || strings.Contains(out, "NEEDED") {
		t.Errorf("clean doctor: exit %d\n%s", code, out)
	}
	if _, out := run("--verbose"); !strings.Contains(out, ".pincer/config.toml: absent") {
		t.Errorf("--verbose does not list the absent files:\n%s", out)
	}
	_ = os.MkdirAll(filepath.Join(ws, ".pincer"), 0o755)
	_ = os.WriteFile(filepath.Join(ws, ".pincer", "config.toml"), []byte("verbose = tru\n"), 0o644)
	code, out = run()
	if code != 1 || !strings.Contains(out, ".pincer/config.toml: ERROR "+filepath.Join(ws, ".pincer", "config.toml")+":1:11") {
		t.Errorf("broken project config: exit %d\n%s", code, out)
	}
	if i := strings.Index(out, "Sandbox:"); i >= 0 && strings.Contains(out[i:], "warning") {
		t.Errorf("a config warning inside the Sandbox section:\n%s", out[i:])
	}
	// A file that parses but that a run refuses (an unknown key): not OK, exit 1 (new user r18).
	_ = os.WriteFile(filepath.Join(ws, ".pincer", "config.toml"), []byte("[sandbox]\nrequire_landlok = true\n"), 0o644)
	code, out = run()
	if code != 1 || strings.Contains(out, ".pincer/config.toml: OK") || !strings.Contains(out, "require_landlok: unknown key") {
		t.Errorf("a project config with an unknown key: exit %d\n%s", code, out)
	}
}

// TestDoctorModelNamesTheBrokenConfig: a user config with a bad line is why no
// model resolves; the Model section says so, not only "no model configured"
// (new user r18).
func TestDoctorModelNamesTheBrokenConfig(t *testing.T) {
	ws := userConfig(t, "default_model = \"local/qwen\"\n[providers.local\nkind = \"custom\"\n")
	for _, k := range []string{"PINCER_MODEL", "PINCER_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "DEEPSEEK_API_KEY"} {
		t.Setenv(k, "")
	}
	t.Chdir(ws)
	var out, errb bytes.Buffer
	code := Main([]string{"doctor"}, strings.NewReader(""), &out, &errb)
	text := out.String() + errb.String()
	model := text[strings.Index(text, "Model:"):]
	if code != 1 || !strings.Contains(model, "config.toml:2") || !strings.Contains(model, "fix it first") {
		t.Errorf("doctor with a broken user config: exit %d\n%s", code, text)
	}
}
