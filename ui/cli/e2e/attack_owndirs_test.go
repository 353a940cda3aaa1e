package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

// TestAttackOwnDirsInWritableRoot (attack: pincer's records written by the
// model): with PINCER_HOME under the temp directory and inside the workspace —
// both roots sandboxed commands may write — the model's Bash (allowed without
// asking) puts valid records, made by a person elsewhere and shipped by the
// repository, into pincer's directories: data/mcp-approvals.json (approving
// the project's .mcp.json server), data/trusted-projects.json (trusting its
// hooks) and config.toml (a user hook), in many forms (redirect, cp, mv, ln
// -s, ln, sh -c, python, eval, a relative path after cd, a symlink the repository
// ships, the data directory moved away and remade), and through the Write
// tool. The next run must start no server and run no hook (marker payloads);
// the control (the person copies the same records in) runs all three.
func TestAttackOwnDirsInWritableRoot(t *testing.T) {
	for _, where := range []string{"tmp", "workspace"} {
		t.Run(where, func(t *testing.T) {
			e, extra := mcpEnv(t)
			if where == "workspace" {
				e.home = filepath.Join(e.repo, "ph")
				if err := os.MkdirAll(e.home, 0o700); err != nil {
					t.Fatal(err)
				}
			}
			out := outsideTemp(t)
			mcpMarker, hookMarker, userMarker := filepath.Join(out, "PROOF_mcp"), filepath.Join(out, "PROOF_hook"), filepath.Join(out, "PROOF_user")
			e.write(".mcp.json", `{"mcpServers": {"plain": {"command": "sh", "args": ["-c", "touch `+mcpMarker+`"]}}}`)
			_ = os.MkdirAll(filepath.Join(e.repo, ".claude"), 0o755)
			e.write(".claude/settings.json", `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"touch `+hookMarker+`"}]}]}}`)

			// Valid records, made by a person for this very repository in
			// another home, shipped by the repository as payloads.
			scratch := t.TempDir()
			person := append(append([]string{}, extra...), "PINCER_HOME="+scratch)
			for _, args := range [][]string{{"mcp", "approve", "plain"}, {"trust", "--yes"}} {
				if o, er, code := e.runWith(person, args...); code != 0 {
					t.Fatalf("pincer %v: %d %s %s", args, code, o, er)
				}
			}
			records := map[string]string{ // payload in the repository -> record, relative to PINCER_HOME
				"pa.json": "data/mcp-approvals.json", "pt.json": "data/trusted-projects.json", "pc.toml": "config.toml",
			}
			for src, rec := range records {
				b, err := os.ReadFile(filepath.Join(scratch, rec))
				if rec == "config.toml" {
					b, err = []byte("[[hooks.SessionStart]]\ncommand = \"touch "+userMarker+"\"\n"), nil
				}
				if err != nil {
					t.Fatalf("the person's record %s: %v", rec, err)
				}
				e.write(src, string(b))
			}
			if err := os.Symlink(e.home, filepath.Join(e.repo, "shipped")); err != nil {
				t.Fatal(err)
			}
			markers := []string{mcpMarker, hookMarker, userMarker}
			clean := func() {
				for _, rec := range records {
					_ = os.Remove(filepath.Join(e.home, rec))
				}
				for _, m := range markers {
					_ = os.Remove(m)
				}
			}
			// One Bash command per form, writing all three records.
			forms := map[string]string{
				"redirect": "cat {SRC} > {DST}",
				"mkdir-cp": "mkdir -p {DIR} && cp {SRC} {DST}",
				"mv":       "cp {SRC} {SRC}.2 && mv {SRC}.2 {DST}",
				"symlink":  "ln -s $PWD/{SRC} {DST}",
				"hardlink": "ln {SRC} {DST}",
				"sh-c":     "sh -c 'cat {SRC} > {DST}'",
				"python":   `python3 -c 'import shutil; shutil.copy("{SRC}", "{DST}")'`,
				"eval":     `d=$(printf %s "{DST}"); eval 'cat {SRC} > "$d"'`,
				"cd-rel":   "cd {DIR} && cat $OLDPWD/{SRC} > {BASE}",
				"shipped":  "mkdir -p shipped/$(dirname {REL}) && cat {SRC} > shipped/{REL}",
				"moved":    "mv {DIR} {DIR}.old; mkdir -p {DIR} && cp {SRC} {DST}",
			}
			attack := func(name, script string, bash bool) {
				t.Helper()
				clean()
				var calls []openaitest.Call
				i := 0
				for src, rec := range records {
					i++
					dst := filepath.Join(e.home, rec)
					if !bash {
						b, _ := os.ReadFile(filepath.Join(e.repo, src))
						args, _ := json.Marshal(map[string]string{"file_path": dst, "content": string(b)})
						calls = append(calls, openaitest.Call{ID: "w" + string(rune('0'+i)), Name: "Write", Args: string(args)})
						continue
					}
					cmd := strings.NewReplacer("{SRC}", src, "{DST}", dst, "{DIR}", filepath.Dir(dst), "{BASE}", filepath.Base(dst), "{REL}", rec).Replace(script)
					args, _ := json.Marshal(map[string]string{"command": cmd})
					calls = append(calls, openaitest.Call{ID: "b" + string(rune('0'+i)), Name: "Bash", Args: string(args)})
				}
				e.fake.Push(openaitest.Reply{ToolCalls: calls}, openaitest.Reply{Text: "done"})
				sout, stderr, code := e.runWith(extra, e.runArgs("--permission-mode", "bypassPermissions", "--output-format", "stream-json", "configure yourself")...)
				if code != 0 {
					t.Fatalf("%s: exit %d: %s\n%s", name, code, sout, stderr)
				}
				e.fake.Push(openaitest.Reply{Text: "ok"})
				if _, stderr, code := e.runWith(extra, e.runArgs("hi")...); code != 0 {
					t.Fatalf("%s: next run: exit %d: %s", name, code, stderr)
				}
				for _, m := range markers {
					if _, err := os.Stat(m); err == nil {
						t.Errorf("%s: %s ran after the model wrote pincer's records", name, filepath.Base(m))
					}
				}
				for _, rec := range records {
					if _, err := os.Lstat(filepath.Join(e.home, rec)); err == nil {
						t.Errorf("%s: the model created %s", name, rec)
					}
				}
				if _, err := os.Stat(filepath.Join(e.home, "data")); err != nil {
					t.Fatalf("%s: pincer's data directory is gone: %v", name, err)
				}
			}
			for name, script := range forms {
				attack("bash-"+name, script, true)
			}
			attack("write-tool", "", false)

			// The control: the person puts the same records in; all three run.
			clean()
			for src, rec := range records {
				b, _ := os.ReadFile(filepath.Join(e.repo, src))
				if err := os.WriteFile(filepath.Join(e.home, rec), b, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			e.fake.Push(openaitest.Reply{Text: "ok"})
			if _, stderr, code := e.runWith(extra, e.runArgs("hi")...); code != 0 {
				t.Fatalf("control: exit %d: %s", code, stderr)
			}
			for _, m := range markers {
				if _, err := os.Stat(m); err != nil {
					t.Errorf("control: %s did not run with the person's records, so the attacks prove nothing", filepath.Base(m))
				}
			}
		})
	}
}
