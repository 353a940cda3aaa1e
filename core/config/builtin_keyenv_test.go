package config

import (
	"slices"
	"testing"
)

// TestBuiltinKeyEnv: doctor looks for every built-in provider's key
// variable, PINCER_API_KEY first, each once (new user r19: ANTHROPIC_API_KEY
// and GEMINI_API_KEY were missing from its hand-written list).
func TestBuiltinKeyEnv(t *testing.T) {
	got := BuiltinKeyEnv()
	if len(got) == 0 || got[0] != "PINCER_API_KEY" {
		t.Fatalf("BuiltinKeyEnv() = %v", got)
	}
	for name := range builtins {
		for _, k := range KeyEnv(name) {
			if builtins[name].keyEnv != nil && !slices.Contains(got, k) {
				t.Errorf("%s's %s missing from %v", name, k, got)
			}
		}
	}
	seen := map[string]bool{}
	for _, k := range got {
		if seen[k] {
			t.Errorf("%s twice in %v", k, got)
		}
		seen[k] = true
	}
}
