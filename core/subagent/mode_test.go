package subagent

import (
	"testing"

	"pincer/core/permission"
)

func TestEffectiveMode(t *testing.T) {
	const (
		plan   = permission.ModePlan
		dont   = permission.ModeDontAsk
		def    = permission.ModeDefault
		accept = permission.ModeAcceptEdits
		bypass = permission.ModeBypass
	)
	cases := []struct {
		parent, want, got permission.Mode
		warn              bool
	}{
		{def, "", def, false},
		{bypass, "", bypass, false},
		{def, plan, plan, false},
		{def, dont, dont, false},
		{def, accept, def, true},
		{def, bypass, def, true},
		{accept, def, def, false},
		{accept, bypass, accept, true},
		{bypass, accept, accept, false},
		{bypass, plan, plan, false},
		{plan, def, plan, true},
		{plan, dont, plan, true},
		{plan, bypass, plan, true},
		{dont, plan, plan, false},
		{dont, def, dont, true},
		{dont, accept, dont, true},
		{def, "yolo", def, true},
		{accept, accept, accept, false},
	}
	for _, c := range cases {
		got, warn := EffectiveMode(c.parent, c.want)
		if got != c.got || (warn != "") != c.warn {
			t.Errorf("EffectiveMode(%s, %s) = %s, %q; want %s, warning %v", c.parent, c.want, got, warn, c.got, c.warn)
		}
	}
}

// TestStrictnessCoversEveryMode: a mode added to core/permission must be
// placed in the order (an unplaced mode would be refused, never loosened,
// but the rule should know it).
func TestStrictnessCoversEveryMode(t *testing.T) {
	for _, m := range permission.Modes {
		if _, ok := strictness[m]; !ok {
			t.Errorf("mode %s has no strictness", m)
		}
	}
}
