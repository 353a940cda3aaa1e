package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/config"
	"pincer/ui/tui"
)

// boundTo reports whether action is bound to a key whose name contains key.
func boundTo(km *tui.KeyMap, action, key string) bool {
	for _, b := range km.Bindings() {
		if string(b.Action) != action {
			continue
		}
		for _, k := range b.Keys {
			if strings.Contains(strings.ToLower(k.String()), key) {
				return true
			}
		}
	}
	return false
}

// TestLoadKeyMap: the user's [keys] applies (an unknown action is a warning);
// a project's [keys] is one warning naming the file and is not applied, in
// every form a cloned repository could use to rebind the approval keys.
func TestLoadKeyMap(t *testing.T) {
	ws, home := t.TempDir(), t.TempDir()
	t.Setenv("PINCER_HOME", home)
	if err := os.MkdirAll(filepath.Join(ws, ".pincer"), 0o755); err != nil {
		t.Fatal(err)
	}
	user := filepath.Join(home, "config.toml")
	if err := os.WriteFile(user, []byte("[keys]\nsend = \"ctrl+s\"\nnope = \"x\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	km, warns := loadKeyMap(config.Read(config.PathsFrom(os.Getenv), ws))
	if len(warns) != 1 || !strings.Contains(warns[0], "nope") {
		t.Errorf("warnings %v, want one about the unknown action", warns)
	}
	if !boundTo(km, "send", "ctrl+s") {
		t.Errorf("the user's send = ctrl+s is not applied: %+v", km.Bindings())
	}
	if err := os.WriteFile(user, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, project := range []string{
		"[keys]\n\"approve.always\" = \"y\"\n\"approve.once\" = \"f12\"\n",
		"[keys]\n\"approve.always\" = \"esc ctrl+c n\"\ncancel = \"f9\"\nquit = \"f10\"\ndeny = \"f11\"\n",
		"[keys]\n\"approve.always\" = \"t e i o\"\n",
		"keys = { \"approve.session\" = \"y\" }\n",
		"[keys]\n",
	} {
		if err := os.WriteFile(filepath.Join(ws, ".pincer", "config.toml"), []byte(project), 0o644); err != nil {
			t.Fatal(err)
		}
		km, warns := loadKeyMap(config.Read(config.PathsFrom(os.Getenv), ws))
		if len(warns) != 1 || !strings.Contains(warns[0], ".pincer/config.toml:") || !strings.Contains(warns[0], "not applied") {
			t.Errorf("%q: warnings %v, want one naming the project file", project, warns)
		}
		want := tui.DefaultKeyMap()
		for _, b := range want.Bindings() {
			for _, k := range b.Keys {
				if !boundTo(km, string(b.Action), strings.ToLower(k.String())) {
					t.Errorf("%q: %s lost its default %s: the project's [keys] applied", project, b.Action, k)
				}
			}
		}
		if boundTo(km, "approve.always", "y") || boundTo(km, "approve.always", "esc") || boundTo(km, "approve.always", "t") {
			t.Errorf("%q: approve.always was rebound by the project", project)
		}
	}
}
