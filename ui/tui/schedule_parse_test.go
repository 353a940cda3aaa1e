package tui

import (
	"strings"
	"testing"
	"time"
)

func TestParseLoopAndSchedule(t *testing.T) {
	now := time.Date(2026, 12, 1, 13, 30, 0, 0, time.Local)
	cases := []struct {
		cmd, line string
		want      schedRequest
		err       string
	}{
		{"/loop", "", schedRequest{op: schedList}, ""},
		{"/loop", "list", schedRequest{op: schedList}, ""},
		{"/loop", "cancel 3", schedRequest{op: schedCancel, cancel: "3"}, ""},
		{"/loop", "cancel #3", schedRequest{op: schedCancel, cancel: "3"}, ""},
		{"/loop", "cancel ALL", schedRequest{op: schedCancel, cancel: "all"}, ""},
		{"/loop", "cancel", schedRequest{}, "usage: cancel ID"},
		{"/loop", "5m check the deploy", schedRequest{op: schedAdd, prompt: "check the deploy", every: 5 * time.Minute, at: now}, ""},
		{"/loop", "1h30m run the tests", schedRequest{op: schedAdd, prompt: "run the tests", every: 90 * time.Minute, at: now}, ""},
		{"/loop", "1d summarise", schedRequest{op: schedAdd, prompt: "summarise", every: 24 * time.Hour, at: now}, ""},
		{"/loop", "check the deploy", schedRequest{op: schedAdd, prompt: "check the deploy", every: loopDefault, at: now}, ""},
		{"/loop", "check the deploy every 20m", schedRequest{op: schedAdd, prompt: "check the deploy", every: 20 * time.Minute, at: now}, ""},
		{"/loop", "every 2h look", schedRequest{op: schedAdd, prompt: "look", every: 2 * time.Hour, at: now}, ""},
		{"/loop", "30s too often", schedRequest{}, "want from 1m"},
		{"/loop", "5m", schedRequest{}, "nothing to send"},
		{"/loop", "366d1h later", schedRequest{}, "want from 1m"},
		{"/loop", "  5m  line one\n  line  two  ", schedRequest{op: schedAdd, prompt: "line one\n  line  two", every: 5 * time.Minute, at: now}, ""},
		{"/loop", "keep  spaces every 20m", schedRequest{op: schedAdd, prompt: "keep  spaces", every: 20 * time.Minute, at: now}, ""},
		{"/schedule", "at 14:00 a\n\nb", schedRequest{op: schedAdd, prompt: "a\n\nb", at: time.Date(2026, 12, 1, 14, 0, 0, 0, time.Local)}, ""},
		{"/loop", "dinner is at 5", schedRequest{op: schedAdd, prompt: "dinner is at 5", every: loopDefault, at: now}, ""},
		{"/schedule", "", schedRequest{op: schedList}, ""},
		{"/schedule", "in 30m review it", schedRequest{op: schedAdd, prompt: "review it", at: now.Add(30 * time.Minute)}, ""},
		{"/schedule", "in 45s soon", schedRequest{op: schedAdd, prompt: "soon", at: now.Add(45 * time.Second)}, ""},
		{"/schedule", "every 1h status", schedRequest{op: schedAdd, prompt: "status", every: time.Hour, at: now.Add(time.Hour)}, ""},
		{"/schedule", "at 14:00 standup notes", schedRequest{op: schedAdd, prompt: "standup notes", at: time.Date(2026, 12, 1, 14, 0, 0, 0, time.Local)}, ""},
		{"/schedule", "at 9:05 morning", schedRequest{op: schedAdd, prompt: "morning", at: time.Date(2026, 12, 2, 9, 5, 0, 0, time.Local)}, ""},
		{"/schedule", "at 13:30 now is past", schedRequest{op: schedAdd, prompt: "now is past", at: time.Date(2026, 12, 2, 13, 30, 0, 0, time.Local)}, ""},
		{"/schedule", "at 25:00 x", schedRequest{}, "HH:MM"},
		{"/schedule", "at 2pm x", schedRequest{}, "HH:MM"},
		{"/schedule", "in soon x", schedRequest{}, "not a duration"},
		{"/schedule", "in 30m", schedRequest{}, "nothing to send"},
		{"/schedule", "tomorrow x", schedRequest{}, "usage: /loop"},
		{"/schedule", "every 10s x", schedRequest{}, "want from 1m"},
	}
	for _, c := range cases {
		parse := parseLoop
		if c.cmd == "/schedule" {
			parse = parseSchedule
		}
		got, err := parse(c.line, now)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s %s: err %v, want %q", c.cmd, c.line, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%s %s: %v", c.cmd, c.line, err)
		case c.err == "" && (got.op != c.want.op || got.prompt != c.want.prompt || got.every != c.want.every ||
			!got.at.Equal(c.want.at) || got.cancel != c.want.cancel):
			t.Errorf("%s %s = %+v, want %+v", c.cmd, c.line, got, c.want)
		}
	}
}

func TestHumanDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		5 * time.Minute: "5m", 90 * time.Minute: "1h30m", 49 * time.Hour: "2d1h", 45 * time.Second: "45s", 0: "0s",
	} {
		if got := humanDuration(d); got != want {
			t.Errorf("humanDuration(%s) = %q, want %q", d, got, want)
		}
	}
}
