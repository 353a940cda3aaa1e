package agent

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/sandbox"
	"pincer/tools"
)

// redTeamCredentialFiles are the files a red team read with a sandboxed cat
// and that the Read tool asked about instead of denying (issue 12, round 2):
// relative to the home directory, or to $XDG_CONFIG_HOME / $XDG_DATA_HOME
// / $XDG_CACHE_HOME with the prefixes "config:", "data:", "cache:".
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

// TestAttackCredentialFilesEveryMode: every credentials location of the one
// table (sandbox.HomeSecrets, through HomeSecretPaths) and every file of the
// red team's list, holding a marker, is denied up front to Read, Grep and
// Glob through the real engine in every permission mode — never asked, never
// read — with the XDG directories pointing elsewhere too.
func TestAttackCredentialFilesEveryMode(t *testing.T) {
	for _, v := range []string{"PINCER_HOME", "XDG_RUNTIME_DIR"} {
		t.Setenv(v, "")
	}
	type target struct{ name, rel string } // rel: as in redTeamCredentialFiles
	var targets []target
	for _, r := range redTeamCredentialFiles {
		targets = append(targets, target{"redteam:" + r, r})
	}
	probeHome := "/HOME"
	for _, p := range sandbox.HomeSecretPaths(func(string) string { return "" }, probeHome) {
		rel := strings.TrimPrefix(p, probeHome+"/")
		targets = append(targets, target{"table:" + rel, rel})
	}
	modes := []permission.Mode{permission.ModeDefault, permission.ModeAcceptEdits, permission.ModePlan, permission.ModeBypass, permission.ModeDontAsk}
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			home := t.TempDir()
			xdg := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", filepath.Join(xdg, "config"))
			t.Setenv("XDG_DATA_HOME", filepath.Join(xdg, "data"))
			t.Setenv("XDG_CACHE_HOME", filepath.Join(xdg, "cache"))
			file := filepath.Join(home, tg.rel)
			if base, rest, ok := strings.Cut(tg.rel, ":"); ok {
				file = filepath.Join(xdg, base, rest)
			}
			mustWriteFile(t, file, outsideMarker+"-cred\n")
			read, _ := json.Marshal(map[string]string{"file_path": file})
			grep, _ := json.Marshal(map[string]string{"pattern": "MARKER", "path": file, "output_mode": "content"})
			glob, _ := json.Marshal(map[string]string{"pattern": "**/*", "path": filepath.Dir(file)})
			for _, mode := range modes {
				ap := &inputApprover{allow: true}
				prov := &providertest.Scripted{Steps: []providertest.Step{
					providertest.ToolCalls(
						providertest.ToolCall("c1", "Read", string(read)),
						providertest.ToolCall("c2", "Grep", string(grep)),
						providertest.ToolCall("c3", "Glob", string(glob))),
					{Events: providertest.TextEvents("ok")},
				}}
				h := newHarnessWith(t, prov, memory.New(), Config{Approver: ap, Home: home, PermissionMode: mode},
					tools.Typed(tools.Read{}), tools.Typed(tools.Glob{}), tools.Typed(tools.Grep{}))
				h.submit(context.Background(), "read it")
				res := h.toolResults()
				for _, id := range []string{"c1", "c2", "c3"} {
					got := res[id].Text
					if strings.Contains(got, outsideMarker) || !strings.HasPrefix(got, "Permission denied") {
						t.Errorf("LEAK (%s, %s): %q", mode, id, got)
					}
					if !strings.Contains(got, "never read") {
						t.Errorf("%s, %s: result = %q, want the up-front denial", mode, id, got)
					}
				}
				if len(ap.seen) != 0 {
					t.Errorf("%s: asked %d times for reads that can never run", mode, len(ap.seen))
				}
			}
		})
	}
}
