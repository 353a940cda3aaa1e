package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A plugin's text (its description, a hook command) cannot drive the
// terminal through pincer plugin install or list, as text or JSON; a usage
// error exits 2.
func TestPluginCommandsSanitizeAndUsage(t *testing.T) {
	t.Setenv("PINCER_HOME", t.TempDir())
	t.Chdir(t.TempDir())
	src := filepath.Join(t.TempDir(), "p")
	for name, body := range map[string]string{
		"plugin.json":      `{"name": "esc", "version": "1\u001b[31m", "description": "\u001b]0;pwned\u0007title\u009b31m"}`,
		"hooks/hooks.json": `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo \u001b]52;c;Zm9v\u0007"}]}]}}`,
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(src, name)), 0o755)
		os.WriteFile(filepath.Join(src, name), []byte(body), 0o644)
	}
	for _, args := range [][]string{{"plugin", "install", src}, {"plugin", "list"}, {"plugin", "list", "--json"}} {
		var out, errb bytes.Buffer
		if code := Main(args, strings.NewReader(""), &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, errb.String())
		}
		if strings.ContainsAny(out.String()+errb.String(), "\x1b\x07\u009b") {
			t.Errorf("%v wrote a control sequence: %q", args, out.String())
		}
		if !strings.Contains(out.String(), "esc") {
			t.Errorf("%v: %q", args, out.String())
		}
	}
	for _, args := range [][]string{{"plugin"}, {"plugin", "frobnicate"}, {"plugin", "enable"}, {"plugin", "enable", "esc", "--scope", "local"}, {"plugin", "list", "x"}} {
		var out, errb bytes.Buffer
		if code := Main(args, strings.NewReader(""), &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errb.String())
		}
	}
}
