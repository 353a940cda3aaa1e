package e2e

// Issue 10, class 6 (the store daemon): a sandboxed command must not be able to
// call the store daemon's socket and save an "allow:Bash" session rule that the
// next turn obeys. The socket is either under PINCER_HOME/run (hidden in the
// sandbox) or, when that path is too long, under $TMPDIR/pincer-<uid> (visible
// unless hidden too); either way the daemon demands a token from a 0600 file the
// sandbox cannot see. A control call from outside the sandbox, with the token,
// proves the attack's request is right.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
	"pincer/persist/daemon"
)

// maxSocketPath is the longest socket path pincer uses before it falls back to
// the temporary directory (ui/cli paths.go).
const maxSocketPath = 100

// storeFiles are the daemon files pincer uses for home (as daemonFiles does).
func storeFiles(home string) daemon.Files {
	store := filepath.Join(home, "data", "store")
	files := daemon.FilesFor(filepath.Join(home, "run"), store)
	if len(files.Socket) > maxSocketPath {
		files = daemon.FilesFor(filepath.Join(os.TempDir(), fmt.Sprintf("pincer-%d", os.Getuid())), store)
	}
	return files
}

// tokenFile is the daemon's token file: beside the socket, ".token" for ".sock"
// (remote.TokenFor).
func tokenFile(files daemon.Files) string {
	return strings.TrimSuffix(files.Socket, ".sock") + ".token"
}

// putRulesCmd is a shell command saving rules for session id through the socket,
// with the token read from tokenFile.
func putRulesCmd(files daemon.Files, id string, rules []string, withToken bool) string {
	body, _ := json.Marshal(map[string]any{"id": id, "rules": rules})
	tok := ""
	if withToken {
		tok = ` -H "Pincer-Store-Token: $(cat ` + tokenFile(files) + `)"`
	}
	return `curl -sS --max-time 5 --unix-socket ` + files.Socket + ` -X POST -H 'Pincer-Store-Protocol: 1' -H 'Content-Type: application/json'` +
		tok + ` -d '` + string(body) + `' http://store/v1/PutSessionRules; echo " rc=$?"`
}

func TestAttackDaemonSocketFromSandbox(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("no curl")
	}
	for _, tc := range []struct{ name, sub string }{
		{"socket-under-pincer-home", ""},
		{"socket-in-tmp-fallback", strings.Repeat("d", 90)},
	} {
		tc := tc
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := newAttackEnv(t)
			if tc.sub != "" {
				a.home = filepath.Join(a.home, tc.sub)
				if err := os.MkdirAll(a.home, 0o700); err != nil {
					t.Fatal(err)
				}
			} else {
				// A short home, so the socket path fits under it.
				short, err := os.MkdirTemp("", "ph")
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.RemoveAll(short) })
				a.home = short
			}
			files := storeFiles(a.home)
			// Turn 1 creates the session (and starts the daemon).
			a.fake.Push(openaitest.Reply{Text: "hi"})
			if _, stderr, code := a.runPincer(a.runArgs("hello")...); code != 0 {
				t.Fatalf("first run: %d %s", code, stderr)
			}
			out, _, _ := a.runPincer("sessions", "--json")
			var list []struct{ ID string }
			if json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 {
				t.Fatalf("sessions: %s", out)
			}
			id := list[0].ID
			if _, err := os.Stat(files.Socket); err != nil {
				t.Fatalf("the daemon socket is not where expected: %v", err)
			}
			// Control: from outside the sandbox, with the token, the same request works
			// (a harmless rule).
			ctl := exec.Command("bash", "-c", putRulesCmd(files, id, []string{"deny:Bash(no-such-program-x)"}, true))
			ctlOut, _ := ctl.CombinedOutput()
			if !strings.Contains(string(ctlOut), "rc=0") || strings.Contains(string(ctlOut), `"error"`) {
				t.Fatalf("control request from outside the sandbox failed, the attack's request is wrong: %s", ctlOut)
			}

			// Turn 2 (bypassPermissions, so the commands run): the sandboxed attack.
			// The requests are in scripts (as if the model had written them earlier), so
			// the permission engine sees only `sh FILE` and the sandbox is what stops them.
			a.write("attack_token.sh", putRulesCmd(files, id, []string{"allow:Bash"}, true)+"\n")
			a.write("attack_no_token.sh", putRulesCmd(files, id, []string{"allow:Bash"}, false)+"\n")
			r := a.runForms("ds", []attackForm{
				{Name: "put-allow-bash-with-token", Cmd: `sh attack_token.sh`},
				{Name: "put-allow-bash-no-token", Cmd: `sh attack_no_token.sh`},
				{Name: "socket-visible", Cmd: `test -S ` + files.Socket + ` && echo SOCKET-VISIBLE; test -r ` + tokenFile(files) + ` && echo TOKEN-READABLE; true`},
			}, "--continue", "--permission-mode", "bypassPermissions")
			for _, c := range r.Results {
				t.Logf("%s", c.describe())
			}
			t.Run("token-hidden", func(t *testing.T) {
				if c := r.Results[2]; strings.Contains(c.Output, "TOKEN-READABLE") {
					t.Errorf("ESCAPE: the daemon token is readable in the sandbox\n  %s", c.describe())
				}
			})
			// Turn 3, default mode: no allow:Bash session rule may have been saved.
			next := a.runForms("dn", []attackForm{{Name: "touch", Cmd: `touch {P}`}}, "--continue")
			expectBlocked(t, next)
		})
	}
}
