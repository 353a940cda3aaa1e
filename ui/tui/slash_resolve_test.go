package tui

import (
	"fmt"
	"testing"

	"pincer/core/app"
)

// TestClassifyInput: which sent lines are commands, the agent's commands,
// refused unknown commands, or prompts for the model.
func TestClassifyInput(t *testing.T) {
	cases := []struct {
		line string
		want inputKind
	}{
		{"fix the bug", inputPrompt},
		{"/help", inputCommand},
		{"  /resume abc  ", inputCommand},
		{"/exit", inputCommand},
		{"/compact keep the tests", inputAgentCommand},
		{"/init", inputAgentCommand},
		{"/foo", inputUnknownCommand},
		{"/x", inputInvocation},
		{"/frontend:lint src", inputInvocation},
		{"/mcp__srv__p a b", inputInvocation},
		{"/foo bar", inputUnknownCommand},
		{"/Help", inputUnknownCommand},
		{"/", inputUnknownCommand},
		{"/usr/bin/x is broken", inputPrompt},
		{"/tmp/", inputPrompt},
		{"/etc/passwd", inputPrompt},
		{"/.config is hidden", inputPrompt},
		{"/42 is the answer", inputPrompt},
		{"a /foo in the middle", inputPrompt},
	}
	for _, c := range cases {
		if got := classifyInput(c.line, func(n string) bool { _, ok := findCommand(testCatalog, n); return ok }); got != c.want {
			t.Errorf("classifyInput(%q) = %d, want %d", c.line, got, c.want)
		}
	}
	if got := classifyInput("/x", nil); got != inputUnknownCommand {
		t.Errorf("classifyInput without a catalog = %d", got)
	}
	if got := classifyInput("/usr/bin/x is broken", nil); got != inputPrompt {
		t.Errorf("a path before Attach = %d", got)
	}
}

// TestCompleteSlashText: Tab completes one match, the shared prefix of
// several, and is the completion's even when nothing more can be added.
func TestCompleteSlashText(t *testing.T) {
	cases := []struct {
		text, completed, candidates string
		ok                          bool
	}{
		{"/he", "/help", "[/help]", true},
		{"/res", "/resume ", "[/resume]", true},
		{"/m", "/m", "[/model /mode /memory /mcp /mcp__srv__p]", true},
		{"/mo", "/mode", "[/model /mode]", true},
		{"/mode", "/mode", "[/model /mode]", true},
		{"/s", "/s", "[/sessions /status /skills /schedule]", true},
		{"/se", "/sessions", "[/sessions]", true},
		{"/l", "/loop ", "[/loop]", true},
		{"/c", "/c", "[/clear /cost /config /context /compact /commit]", true},
		{"/zzz", "/zzz", "[]", true},
		{"/", "/", fmt.Sprint(append(commandNames(), "/commit", "/x", "/frontend:lint", "/mcp__srv__p")), true},
		{"hello", "hello", "[]", false},
		{"/resume abc", "/resume abc", "[]", false},
		{"/x", "/x", "[/x]", true},
		{"/fr", "/frontend:lint ", "[/frontend:lint]", true},
		{"/co", "/co", "[/cost /config /context /compact /commit]", true},
		{"/com", "/com", "[/compact /commit]", true},
		{"/comm", "/commit", "[/commit]", true},
		{"/he", "/help", "[/help]", true}, // the catalog's /help does not shadow the table's
	}
	for _, c := range cases {
		got, cands, ok := completeSlashText(c.text, testCatalog)
		if got != c.completed || fmt.Sprint(cands) != c.candidates && !(c.candidates == "[]" && cands == nil) || ok != c.ok {
			t.Errorf("completeSlashText(%q) = %q %v %v, want %q %s %v", c.text, got, cands, ok, c.completed, c.candidates, c.ok)
		}
	}
}

// commandNames is every command's name, in table order.
func commandNames() []string {
	var out []string
	for _, c := range slashCommands {
		out = append(out, c.name)
	}
	return out
}

// testCatalog is a Backend's Commands for the pure tests.
var testCatalog = []app.Command{
	{Name: "/commit", Description: "commit the change", Origin: "builtin"},
	{Name: "/x", Description: "does x", Origin: "project"},
	{Name: "/frontend:lint", Description: "lint", ArgumentHint: "[dir]", Origin: "project"},
	{Name: "/mcp__srv__p", Description: "a prompt", Origin: "mcp:srv"},
	{Name: "/help", Description: "a skill named help", Origin: "user"},
}

func TestDescribeCommand(t *testing.T) {
	if got := describeCommand(testCatalog[2]); got != "/frontend:lint [dir] — lint (project)" {
		t.Errorf("%q", got)
	}
	lines := catalogHelpLines(testCatalog)
	if len(lines) != 6 || lines[2] != "  /commit — commit the change (builtin)" {
		t.Errorf("%q", lines)
	}
}
