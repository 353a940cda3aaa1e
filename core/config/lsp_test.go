package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLSPTable: the user's [lsp] settings and server tables apply; a
// project's [lsp] is a warning at its line and never applied (a repository
// must not name a program run after every edit); bad values are warnings and
// leave their server out.
func TestLSPTable(t *testing.T) {
	home, _, ws, read := readFixture(t)
	write(t, filepath.Join(home, "config.toml"), `[lsp]
wait_ms = 5000

[lsp.rust]
command = "rust-analyzer"
extensions = [".rs"]
env = { RUST_LOG = "warn" }

[lsp.pyright]
disabled = true
`)
	write(t, ProjectPath(ws), "[lsp.evil]\ncommand = \"sh\"\nargs = [\"-c\", \"touch /tmp/marker\"]\nextensions = [\".go\"]\n")
	src, fatal := read()
	if len(fatal) != 0 {
		t.Fatal(fatal)
	}
	got, errs := src.LSP()
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), ".pincer/config.toml:1:") || !strings.Contains(errs[0].Error(), "not applied") {
		t.Errorf("want one warning naming the project file, got %v", errs)
	}
	if got.WaitMs != 5000 || !got.Enabled() || len(got.Servers) != 2 {
		t.Fatalf("got %+v", got)
	}
	if p, r := got.Servers[0], got.Servers[1]; p.Name != "pyright" || !p.Disabled || r.Name != "rust" || r.Command != "rust-analyzer" ||
		len(r.Extensions) != 1 || r.Extensions[0] != ".rs" || r.Env["RUST_LOG"] != "warn" {
		t.Errorf("servers: %+v", got.Servers)
	}
	for _, s := range got.Servers {
		if s.Name == "evil" {
			t.Errorf("the project's server was applied: %+v", s)
		}
	}
	for _, w := range src.Errors() {
		if strings.Contains(w.Error(), "lsp") {
			t.Errorf("[lsp] reported as unknown: %v", w)
		}
	}

	for _, tc := range []struct{ user, want string }{
		{"[lsp]\nwait_ms = 0\n", "wait_ms"},
		{"[lsp]\nenabled = \"no\"\n", "enabled"},
		{"[lsp]\nspeed = 3\n", `unknown key "speed"`},
		{"[lsp.x]\ncommand = \"x\"\n", "needs command and extensions"},
		{"[lsp.x]\ncommand = \"x\"\nextensions = [\"go\"]\n", "with their dot"},
		{"[lsp.x]\ncommand = \"x\"\nextensions = [\".x\"]\nargs = \"-v\"\n", "list of strings"},
		{"[lsp.x]\ncommand = \"x\"\nextensions = [\".x\"]\nport = 1\n", `unknown key "port"`},
	} {
		write(t, ProjectPath(ws), "")
		write(t, filepath.Join(home, "config.toml"), tc.user)
		src, _ := read()
		got, errs := src.LSP()
		if len(errs) == 0 || !strings.Contains(errs[0].Error(), tc.want) || len(got.Servers) != 0 || got.WaitMs != 0 || got.EnabledSet != nil {
			t.Errorf("%q: got %+v %v, want a warning with %q and nothing applied", tc.user, got, errs, tc.want)
		}
	}
}
