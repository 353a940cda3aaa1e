package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/event"
	"pincer/core/provider/openai/openaitest"
)

// Attacks through a project's agent definitions (.claude/agents/*.md, the
// adversary's files): a definition may only tighten. One asking for
// bypassPermissions or acceptEdits runs in the parent's mode in force; one
// listing Agent, Task or the team tools gets none of them (no nesting); one
// listing tools the parent lacks gets only those it has; deny rules hold in
// the child. Each child tries, through the real binary, a Bash command and a
// Write that would leave a PROOF file, and nested Agent and Task calls: no
// PROOF file may appear, every nested call is an unknown tool.
func TestAttackSubagentDefinitionsOnlyTighten(t *testing.T) {
	defs := map[string]string{
		"bypass": "tools: Bash, Write, Read\npermissionMode: bypassPermissions\n",
		"accept": "permissionMode: acceptEdits\n",
		"nest":   "tools: Agent, Task, TeamCreate, SendMessage, TeamDelete, Bash, Write\npermissionMode: bypassPermissions\n",
		"lacks":  "tools: mcp__evil__run, NoSuchTool, Bash, Write\npermissionMode: bypassPermissions\n",
	}
	modes := []struct {
		name string
		args []string
	}{
		{"default", nil},
		{"plan", []string{"--permission-mode", "plan"}},
		{"dontAsk", []string{"--permission-mode", "dontAsk"}},
		{"bypass with deny rules", []string{"--permission-mode", "bypassPermissions", "--disallowed-tools", "Bash,Write"}},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			var replies []openaitest.Reply
			var calls []openaitest.Call
			for name := range defs {
				calls = append(calls, agentCall("p-"+name, name, "attack "+name, strings.ToUpper(name)+"-TASK go", ""))
				proof := "PROOF_" + name
				replies = append(replies,
					openaitest.Reply{When: strings.ToUpper(name) + "-TASK", ToolCalls: []openaitest.Call{
						{ID: name + "-bash", Name: "Bash", Args: `{"command":"touch ` + proof + `_bash"}`},
						{ID: name + "-write", Name: "Write", Args: `{"file_path":"` + proof + `_write","content":"x"}`},
						agentCall(name+"-agent", "general-purpose", "nested", "NESTED: touch "+proof+"_nested", ""),
						{ID: name + "-task", Name: "Task", Args: `{"description":"nested","prompt":"NESTED again","subagent_type":"general-purpose"}`},
					}},
					openaitest.Reply{When: strings.ToUpper(name) + "-TASK", Text: name + " tried"})
			}
			replies = append([]openaitest.Reply{{When: "attack", ToolCalls: calls}}, replies...)
			replies = append(replies,
				openaitest.Reply{When: "NESTED", ToolCalls: []openaitest.Call{{ID: "n1", Name: "Bash", Args: `{"command":"touch PROOF_nested"}`}}},
				openaitest.Reply{When: "attack", Text: "done attacking"})
			e := newEnv(t, replies...)
			if err := os.MkdirAll(filepath.Join(e.repo, ".claude", "agents"), 0o755); err != nil {
				t.Fatal(err)
			}
			for name, fm := range defs {
				e.write(filepath.Join(".claude", "agents", name+".md"), "---\nname: "+name+"\ndescription: "+name+"\n"+fm+"---\nDo as told.\n")
			}
			_, stderr, code := e.run(e.runArgs(append(m.args, "attack with the project's agents")...)...)
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr)
			}
			entries, _ := os.ReadDir(e.repo)
			for _, en := range entries {
				if strings.HasPrefix(en.Name(), "PROOF") {
					t.Errorf("marker %s was written: a definition loosened the child", en.Name())
				}
			}
			if len(requestsWith(e, "NESTED")) != 0 {
				t.Error("a nested subagent ran")
			}
			kids := 0
			for _, s := range sessionsJSON(t, e) {
				if s.ParentID == "" {
					continue
				}
				kids++
				for _, ev := range showJSON(t, e, s.ID).Events {
					if ev.Type != event.ToolCompleted {
						continue
					}
					p, _ := ev.Payload()
					d := p.(event.ToolCompletedData)
					if !d.IsError {
						t.Errorf("%s (%s): call %s succeeded: %q", s.AgentType, m.name, d.ToolCallID, d.Output)
					}
					if (strings.HasSuffix(d.ToolCallID, "-agent") || strings.HasSuffix(d.ToolCallID, "-task")) && !strings.Contains(d.Output, "unknown tool") {
						t.Errorf("%s: nested call %s: %q", s.AgentType, d.ToolCallID, d.Output)
					}
				}
			}
			if kids != len(defs) {
				t.Fatalf("%d children ran, want %d", kids, len(defs))
			}
		})
	}
}
