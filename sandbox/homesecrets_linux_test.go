package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// redTeamCredentialFiles are the files a red team read with a sandboxed cat
// (issue 12, round 2): relative to the home directory, or to $XDG_CONFIG_HOME
// / $XDG_DATA_HOME / $XDG_CACHE_HOME with the prefixes "config:", "data:",
// "cache:". core/agent's attack test holds the same list for the file tools.
var redTeamCredentialFiles = []string{
	".claude/.credentials.json", ".codex/auth.json",
	".config/github-copilot/hosts.json", ".config/github-copilot/apps.json",
	".pgpass", ".config/rclone/rclone.conf", ".pulumi/credentials.json",
	".config/doctl/config.yaml", ".oci/config", ".config/heroku/config.json",
	".config/netlify/config.json", ".netlify/config.json",
	".config/configstore/firebase-tools.json", ".wrangler/config/default.toml",
	".config/.wrangler/config/default.toml",
	".mozilla/firefox/p.default/logins.json", ".config/google-chrome/Default/Login Data",
	".config/chromium/Default/Cookies", ".config/BraveSoftware/Brave-Browser/Default/Login Data",
	"snap/chromium/common/chromium/Default/Login Data", "snap/firefox/common/.mozilla/firefox/p.default/logins.json",
	".var/app/org.chromium.Chromium/config/chromium/Default/Cookies",
	".var/app/org.mozilla.firefox/.mozilla/firefox/p.default/key4.db",
	".var/app/com.google.Chrome/config/google-chrome/Default/Login Data",
	".var/app/com.brave.Browser/config/BraveSoftware/Brave-Browser/Default/Cookies",
	".config/microsoft-edge/Default/Login Data", ".config/vivaldi/Default/Cookies",
	".local/share/qutebrowser/webengine/Cookies", ".local/share/epiphany/cookies.sqlite",
	".cache/mozilla/firefox/p.default/cache2/entries/E1", ".cache/chromium/Default/Cache/data_1",
	".cache/google-chrome/Default/Cache/data_1", "config:microsoft-edge/Default/Cookies",
	"data:qutebrowser/cookies", "cache:mozilla/firefox/p.default/startupCache",
	".bash_history", ".zsh_history", ".psql_history", ".mysql_history", ".python_history",
	".node_repl_history", ".sqlite_history", ".rediscli_history", ".local/share/fish/fish_history",
	".azure/msal_token_cache.json", ".terraform.d/credentials.tfrc.json", ".cargo/credentials.toml",
	".gem/credentials", ".pypirc", ".vault-token", ".config/hub", ".password-store/x.gpg",
	".gnupg/private-keys-v1.d/k.key", ".local/share/keyrings/login.keyring", ".config/op/config",
	".config/gcloud/credentials.db", ".aws/credentials", ".git-credentials", ".config/git/credentials",
	".huggingface/token", ".cache/huggingface/token", ".config/anthropic/key", ".config/openai/key",
	".ollama/id_ed25519", ".config/Code/User/globalStorage/state.vscdb", ".netrc",
	"config:github-copilot/hosts.json", "config:gh/hosts.yml", "config:rclone/rclone.conf",
	"data:fish/fish_history", "data:keyrings/login.keyring", "cache:huggingface/token",
}

// TestSandboxHidesCredentialFiles: a real sandboxed cat (and find, grep) of
// every file of the red team's list, and of every location of the one table
// (HomeSecretPaths, each written as a file), gets nothing of their marker
// contents, with the XDG directories pointing outside the home directory too;
// the rest of the home directory stays readable.
func TestSandboxHidesCredentialFiles(t *testing.T) {
	t.Setenv("PINCER_HOME", t.TempDir())
	var table []string
	for _, p := range HomeSecretPaths(func(string) string { return "" }, "/HOME") {
		table = append(table, strings.TrimPrefix(p, "/HOME/"))
	}
	for name, rels := range map[string][]string{"redteam": redTeamCredentialFiles, "table": table} {
		t.Run(name, func(t *testing.T) {
			home, xdg := t.TempDir(), t.TempDir()
			t.Setenv("HOME", home)
			for _, v := range []string{"config", "data", "cache"} {
				t.Setenv("XDG_"+strings.ToUpper(v)+"_HOME", filepath.Join(xdg, v))
			}
			var files []string
			for _, rel := range rels {
				p := filepath.Join(home, rel)
				if base, rest, ok := strings.Cut(rel, ":"); ok {
					p = filepath.Join(xdg, base, rest)
				}
				if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("SECRET-MARK("+rel+")\n"), 0o600); err != nil {
					t.Fatal(err)
				}
				files = append(files, "'"+p+"'")
			}
			if err := os.WriteFile(filepath.Join(home, "notes.txt"), []byte("visible\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			e, _ := newSandbox(t, DefaultPolicy())
			for _, a := range []string{
				"cat " + strings.Join(files, " "),
				"find " + home + " " + xdg + " -type f -exec cat {} +",
				"grep -r SECRET-MARK " + home + " " + xdg,
			} {
				res := sh(t, e, a)
				for _, line := range strings.Split(res.Output, "\n") {
					if strings.Contains(line, "SECRET-MARK(") {
						t.Errorf("a sandboxed command read a credentials file: %q", line)
					}
				}
			}
			if res := sh(t, e, "cat ~/notes.txt"); !strings.Contains(res.Output, "visible") {
				t.Errorf("the rest of HOME is not readable: %q", res.Output)
			}
		})
	}
}
