package tui

import (
	"fmt"
	"testing"
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
		if got := classifyInput(c.line); got != c.want {
			t.Errorf("classifyInput(%q) = %d, want %d", c.line, got, c.want)
		}
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
		{"/m", "/m", "[/model /mode /mcp]", true},
		{"/mode", "/mode", "[/model /mode]", true},
		{"/s", "/s", "[/sessions /schedule]", true},
		{"/se", "/sessions", "[/sessions]", true},
		{"/l", "/loop ", "[/loop]", true},
		{"/c", "/c", "[/clear /cost /compact]", true},
		{"/zzz", "/zzz", "[]", true},
		{"/", "/", fmt.Sprint(commandNames()), true},
		{"hello", "hello", "[]", false},
		{"/resume abc", "/resume abc", "[]", false},
	}
	for _, c := range cases {
		got, cands, ok := completeSlashText(c.text)
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
