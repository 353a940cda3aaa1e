package tui

import "testing"

func TestAgentCommand(t *testing.T) {
	for line, want := range map[string]bool{
		"/compact": true, "/compact keep the API": true, "/init": true,
		"/help": false, "/mode plan": false, "/compacted": false,
	} {
		if got := agentCommand(line); got != want {
			t.Errorf("agentCommand(%q) = %v, want %v", line, got, want)
		}
	}
}
