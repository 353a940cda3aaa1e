package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

// TestSpillFileReadByTheModel (issue 17): after a long Bash output a `pincer
// run` in the default permission mode names the spill file, and the model's
// Read and Grep of it run (they were denied as pincer's own data); a Read of
// another session's spill file stays denied. With PINCER_HOME and without it
// (the data directory below HOME/.local/share). A sandboxed Bash reads the
// spill file too, and not another session's.
func TestSpillFileReadByTheModel(t *testing.T) {
	for _, layout := range []string{"pincer-home", "xdg-default"} {
		t.Run(layout, func(t *testing.T) {
			e := newEnv(t, openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "b1", Name: "Bash",
				Args: `{"command":"seq 1 300000"}`}}}, openaitest.Reply{Text: "counted"})
			data := filepath.Join(e.home, "data")
			userHome := t.TempDir()
			run := func(args ...string) (string, string) {
				t.Helper()
				cmd := e.command(args...)
				if layout == "xdg-default" {
					cmd.Env = append(cmd.Env, "PINCER_HOME=", "HOME="+userHome, "XDG_DATA_HOME=", "XDG_CONFIG_HOME=", "XDG_STATE_HOME=", "XDG_RUNTIME_DIR=")
				}
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				if err := cmd.Run(); err != nil {
					t.Fatalf("pincer %v: %v\n%s", args, err, errb.String())
				}
				return out.String(), errb.String()
			}
			if layout == "xdg-default" {
				data = filepath.Join(userHome, ".local", "share", "pincer")
			}
			other := filepath.Join(data, "tool-results", "other-session", "c1.txt")
			if err := os.MkdirAll(filepath.Dir(other), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(other, []byte("OTHER-SPILL-MARKER\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			out, _ := run(e.runArgs("--allowed-tools", "Bash(seq:*)", "--output-format", "stream-json", "count")...)
			var bash streamEvent
			for _, ev := range parseStream(t, out) {
				if ev.Type == "tool.completed" {
					bash = ev
				}
			}
			i := strings.Index(bash.Output, filepath.Join(data, "tool-results"))
			if i < 0 {
				t.Fatalf("the result names no spill file: ...%s", bash.Output[max(0, len(bash.Output)-300):])
			}
			path := strings.TrimRight(strings.Fields(bash.Output[i:])[0], ".,;:)")
			e.fake.Push(openaitest.Reply{ToolCalls: []openaitest.Call{
				{ID: "r1", Name: "Read", Args: `{"file_path":"` + path + `","offset":299999}`},
				{ID: "g1", Name: "Grep", Args: `{"pattern":"^299998$","path":"` + path + `","output_mode":"content"}`},
				{ID: "x1", Name: "Read", Args: `{"file_path":"` + other + `"}`},
			}}, openaitest.Reply{ToolCalls: []openaitest.Call{
				{ID: "t1", Name: "Bash", Args: `{"command":"tail -n 1 ` + path + `"}`},
			}}, openaitest.Reply{ToolCalls: []openaitest.Call{
				{ID: "x2", Name: "Bash", Args: `{"command":"cat ` + other + `"}`},
			}}, openaitest.Reply{Text: "read"})
			out, _ = run(e.runArgs("--continue", "--allowed-tools", "Bash(tail:*) Bash(cat:*)", "--output-format", "stream-json", "read the end")...)
			got := map[string]streamEvent{}
			var bashes []streamEvent
			for _, ev := range parseStream(t, out) {
				if ev.Type == "tool.completed" {
					got[ev.Name] = ev
					if strings.Contains(ev.Output, "OTHER-SPILL-MARKER") {
						t.Errorf("LEAK: another session's spill file was read: %q", ev.Output)
					}
					if ev.Name == "Read" && !strings.Contains(ev.Output, "other-session") && (ev.IsError || !strings.Contains(ev.Output, "300000")) {
						t.Errorf("Read of the spill file: %q", ev.Output)
					}
					if ev.Name == "Bash" {
						bashes = append(bashes, ev)
					}
					if ev.Name == "Grep" && (ev.IsError || !strings.Contains(ev.Output, "299998")) {
						t.Errorf("Grep of the spill file: %q", ev.Output)
					}
				}
			}
			if len(bashes) != 2 || bashes[0].IsError || strings.TrimSpace(bashes[0].Output) != "300000" {
				t.Errorf("the sandboxed tail of the spill file: %+v", bashes)
			}
			if len(got) == 0 {
				t.Errorf("no tool ran: %s", out)
			}
		})
	}
}
