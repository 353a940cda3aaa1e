package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

// TestRunSaysDenials: a `pincer run` whose tool calls are denied says so on
// stderr, one line per call naming the tool, its command or path and why,
// with the hint that fits the tool (a Bash rule for a command, acceptEdits
// and an Edit rule explained for a file a command writes, an Edit rule for
// Write), lists them in the json result's permissionDenials, and exits 0 as
// claude -p does (the turn completed). The hints work: rerun with the named
// flag, each call runs.
func TestRunSaysDenials(t *testing.T) {
	type call struct {
		name, args string
		line       []string // substrings of its stderr line
		made       string   // the file it makes once allowed
	}
	calls := []call{
		{"Bash", `{"command":"touch made-by-bash"}`, []string{"pincer: denied Bash: touch made-by-bash (headless): Bash was denied", "--permission-mode acceptEdits (or bypassPermissions)", "--allowed-tools 'Bash(touch made-by-bash)'"}, "made-by-bash"},
		{"Bash", `{"command":"echo hi > out.txt"}`, []string{"pincer: denied Bash: echo hi > out.txt (headless)", "--permission-mode acceptEdits (or bypassPermissions)", "--allowed-tools 'Edit(//", "an Edit rule allows the file the command writes"}, "out.txt"},
		{"Bash", `{"command":"cat hello.txt | tee copy.txt"}`, []string{"pincer: denied Bash: cat hello.txt | tee copy.txt (headless)", "--permission-mode bypassPermissions,", "--allowed-tools 'Bash("}, "copy.txt"},
		{"Write", `{"file_path":"new.txt","content":"x\n"}`, []string{"pincer: denied Write new.txt (headless): Write was denied", "--permission-mode acceptEdits (or bypassPermissions)", "--allowed-tools 'Edit(//"}, "new.txt"},
	}
	script := func() []openaitest.Reply {
		var rs []openaitest.Reply
		for i, c := range calls {
			rs = append(rs, openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "d" + string(rune('1'+i)), Name: c.name, Args: c.args}}})
		}
		return append(rs, openaitest.Reply{Text: "Done."})
	}
	for _, format := range []string{"text", "json", "stream-json"} {
		t.Run(format, func(t *testing.T) {
			e := newEnv(t, script()...)
			out, stderr, code := e.run(e.runArgs("--output-format", format, "make the files")...)
			if code != 0 {
				t.Fatalf("exit %d (want 0, as claude -p): %s", code, stderr)
			}
			lines := regexp.MustCompile(`(?m)^pincer: denied .*$`).FindAllString(stderr, -1)
			if len(lines) != len(calls) {
				t.Fatalf("%d denial lines on stderr, want %d: %q", len(lines), len(calls), stderr)
			}
			for i, c := range calls {
				for _, want := range c.line {
					if !strings.Contains(lines[i], want) {
						t.Errorf("denial line %d %q lacks %q", i, lines[i], want)
					}
				}
				if c.name == "Bash" && strings.Contains(lines[i], "'Edit(") && !strings.Contains(lines[i], "an Edit rule allows") {
					t.Errorf("a Bash hint names an Edit rule unexplained: %q", lines[i])
				}
				if _, err := os.Stat(filepath.Join(e.repo, c.made)); err == nil {
					t.Errorf("%s ran although denied", c.args)
				}
			}
			if format == "json" {
				var res struct {
					IsError           bool
					PermissionDenials []struct{ ToolCallID, Tool, Summary, By, Reason string }
				}
				if err := json.Unmarshal([]byte(out), &res); err != nil {
					t.Fatalf("json %q: %v", out, err)
				}
				if res.IsError || len(res.PermissionDenials) != len(calls) || res.PermissionDenials[0].Tool != "Bash" ||
					res.PermissionDenials[0].By != "headless" || res.PermissionDenials[0].ToolCallID != "d1" ||
					res.PermissionDenials[3].Tool != "Write" || !strings.Contains(res.PermissionDenials[1].Reason, "acceptEdits") {
					t.Errorf("permissionDenials %+v", res)
				}
			}
		})
	}
	// A deny rule's refusal is a line too, naming the rule.
	e := newEnv(t, openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "r1", Name: "Bash", Args: `{"command":"rm -f hello.txt"}`}}}, openaitest.Reply{Text: "Done."})
	_, stderr, code := e.run(e.runArgs("--disallowed-tools", "Bash(rm:*)", "remove it")...)
	if code != 0 || !regexp.MustCompile(`(?m)^pincer: denied Bash: rm -f hello.txt \(rule Bash\(rm:\*\)[^)]*\): `).MatchString(stderr) {
		t.Errorf("deny rule: exit %d, stderr %q", code, stderr)
	}
	// The hints work: with the mode each line names, the calls run.
	e = newEnv(t, script()...)
	if _, stderr, code := e.run(e.runArgs("--permission-mode", "bypassPermissions", "make the files")...); code != 0 || strings.Contains(stderr, "pincer: denied") {
		t.Fatalf("bypassPermissions: exit %d, %q", code, stderr)
	}
	for _, c := range calls {
		if _, err := os.Stat(filepath.Join(e.repo, c.made)); err != nil {
			t.Errorf("%s did not run with the mode its hint names: %v", c.args, err)
		}
	}
	e = newEnv(t, script()...)
	_, stderr, code = e.run(e.runArgs("--permission-mode", "acceptEdits", "make the files")...)
	if code != 0 || strings.Count(stderr, "pincer: denied") != 1 || !strings.Contains(stderr, "pincer: denied Bash: cat hello.txt | tee copy.txt") {
		t.Fatalf("acceptEdits: exit %d, %q", code, stderr)
	}
	for i, c := range calls {
		if i == 2 {
			continue
		}
		if _, err := os.Stat(filepath.Join(e.repo, c.made)); err != nil {
			t.Errorf("%s did not run with the mode its hint names: %v", c.args, err)
		}
	}
}
