package tui

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// /loop and /schedule: what a line asks for, decided purely from its words and
// the time it was typed (schedule.go runs it).
//
//	/loop [INTERVAL] PROMPT     send PROMPT now, then every INTERVAL (default loopDefault), as
//	                            Claude Code's /loop ("execute the prompt now, don't wait for the
//	                            first fire"); also "/loop every INTERVAL PROMPT", "/loop PROMPT every INTERVAL"
//	/schedule in DURATION PROMPT     once, DURATION from now
//	/schedule every INTERVAL PROMPT  repeat
//	/schedule at HH:MM PROMPT        once, at the next HH:MM (local time, 24-hour)
//	/loop | /loop list | /schedule | /schedule list    list them all
//	/loop cancel ID|all | /schedule cancel ID|all      cancel
//
// A DURATION is Go's form with days too: 30s, 5m, 1h30m, 2d. A repeat's
// interval is at least minEvery; nothing is further off than maxDelay.

// Bounds of what /loop and /schedule accept.
const (
	loopDefault = 10 * time.Minute // /loop PROMPT alone (Claude Code's default interval)
	minEvery    = time.Minute      // the shortest repeat
	minDelay    = time.Second      // the shortest "in"
	maxDelay    = 366 * 24 * time.Hour
)

// schedOp is what a /loop or /schedule line does.
type schedOp int

const (
	schedList schedOp = iota
	schedAdd
	schedCancel
)

// schedRequest is a parsed /loop or /schedule line.
type schedRequest struct {
	op     schedOp
	prompt string        // schedAdd: what is sent
	every  time.Duration // schedAdd: the repeat's interval; 0 for once
	at     time.Time     // schedAdd: the first (or only) time it is due
	cancel string        // schedCancel: a job's ID, or "all"
}

// errScheduleUsage is the usage of both commands, for a line that is neither form.
var errScheduleUsage = errors.New("usage: /loop [INTERVAL] PROMPT · /schedule in|every DURATION PROMPT · /schedule at HH:MM PROMPT · list · cancel ID|all")

// parseLoop reads /loop's text (the line after the name) typed at now. The
// prompt is the text after the interval as typed (its spaces and lines kept).
// A loop is due at once (at: now), then every interval.
func parseLoop(rest string, now time.Time) (schedRequest, error) {
	r, err := parseLoopWords(rest, now)
	if err == nil && r.op == schedAdd {
		r.at = now
	}
	return r, err
}

// parseLoopWords is parseLoop's reading of the words; a repeat it finds is
// due first one interval from now (as /schedule every's).
func parseLoopWords(rest string, now time.Time) (schedRequest, error) {
	args := strings.Fields(rest)
	if r, ok, err := listOrCancel(args); ok {
		return r, err
	}
	if d, ok := parseDuration(args[0]); ok {
		return repeat(d, afterWords(rest, 1), now)
	}
	if len(args) >= 2 && strings.EqualFold(args[0], "every") {
		if d, ok := parseDuration(args[1]); ok {
			return repeat(d, afterWords(rest, 2), now)
		}
	}
	if n := len(args); n >= 3 && strings.EqualFold(args[n-2], "every") {
		if d, ok := parseDuration(args[n-1]); ok {
			return repeat(d, beforeLastWords(rest, 2), now)
		}
	}
	return repeat(loopDefault, strings.TrimSpace(rest), now)
}

// parseSchedule reads /schedule's text (the line after the name) typed at now.
func parseSchedule(rest string, now time.Time) (schedRequest, error) {
	args := strings.Fields(rest)
	if r, ok, err := listOrCancel(args); ok {
		return r, err
	}
	if len(args) < 2 {
		return schedRequest{}, errScheduleUsage
	}
	switch strings.ToLower(args[0]) {
	case "every":
		d, ok := parseDuration(args[1])
		if !ok {
			return schedRequest{}, fmt.Errorf("/schedule every %s: not a duration (5m, 1h, 2d)", args[1])
		}
		return repeat(d, afterWords(rest, 2), now)
	case "in":
		d, ok := parseDuration(args[1])
		if !ok {
			return schedRequest{}, fmt.Errorf("/schedule in %s: not a duration (30s, 5m, 1h)", args[1])
		}
		if d < minDelay || d > maxDelay {
			return schedRequest{}, fmt.Errorf("/schedule in %s: want from %s to %s", args[1], minDelay, humanDuration(maxDelay))
		}
		return once(now.Add(d), afterWords(rest, 2))
	case "at":
		at, ok := nextClockTime(now, args[1])
		if !ok {
			return schedRequest{}, fmt.Errorf("/schedule at %s: want a time of day as HH:MM (24-hour)", args[1])
		}
		return once(at, afterWords(rest, 2))
	}
	return schedRequest{}, errScheduleUsage
}

// listOrCancel reads the list and cancel forms shared by both commands; ok is
// false for an add.
func listOrCancel(args []string) (schedRequest, bool, error) {
	if len(args) == 0 || (len(args) == 1 && strings.EqualFold(args[0], "list")) {
		return schedRequest{op: schedList}, true, nil
	}
	if strings.EqualFold(args[0], "cancel") {
		if len(args) != 2 {
			return schedRequest{}, true, errors.New("usage: cancel ID (the list shows the IDs) or cancel all")
		}
		return schedRequest{op: schedCancel, cancel: strings.TrimPrefix(strings.ToLower(args[1]), "#")}, true, nil
	}
	return schedRequest{}, false, nil
}

func repeat(d time.Duration, prompt string, now time.Time) (schedRequest, error) {
	if d < minEvery || d > maxDelay {
		return schedRequest{}, fmt.Errorf("an interval of %s: want from %s to %s", humanDuration(d), humanDuration(minEvery), humanDuration(maxDelay))
	}
	if prompt == "" {
		return schedRequest{}, errors.New("nothing to send: give a prompt after the interval")
	}
	return schedRequest{op: schedAdd, prompt: prompt, every: d, at: now.Add(d)}, nil
}

func once(at time.Time, prompt string) (schedRequest, error) {
	if prompt == "" {
		return schedRequest{}, errors.New("nothing to send: give a prompt after the time")
	}
	return schedRequest{op: schedAdd, prompt: prompt, at: at}, nil
}

// parseDuration reads Go's duration form with a "d" (24 hours) unit too:
// "90s", "5m", "1h30m", "2d", "1d12h". Only positive whole durations.
func parseDuration(s string) (time.Duration, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	var days time.Duration
	if i := strings.IndexByte(s, 'd'); i > 0 {
		n, err := strconv.Atoi(s[:i])
		if err != nil || n < 0 || n > 366 {
			return 0, false
		}
		days, s = time.Duration(n)*24*time.Hour, s[i+1:]
	}
	var rest time.Duration
	if s != "" {
		if s[0] < '0' || s[0] > '9' {
			return 0, false
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			return 0, false
		}
		rest = d
	}
	d := days + rest
	return d, d > 0
}

// nextClockTime is the next moment after now at the time of day hhmm
// ("14:00", "9:05") in now's location: today if it is still ahead, else
// tomorrow.
func nextClockTime(now time.Time, hhmm string) (time.Time, bool) {
	h, m, ok := strings.Cut(hhmm, ":")
	if !ok || len(m) != 2 || len(h) < 1 || len(h) > 2 {
		return time.Time{}, false
	}
	hour, err1 := strconv.Atoi(h)
	minute, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || hour < 0 || hour > 23 || minute < 0 || minute > 59 {
		return time.Time{}, false
	}
	at := time.Date(now.Year(), now.Month(), now.Day(), hour, minute, 0, 0, now.Location())
	if !at.After(now) {
		at = time.Date(now.Year(), now.Month(), now.Day()+1, hour, minute, 0, 0, now.Location())
	}
	return at, true
}

// humanDuration writes d as the commands take it: "5m", "1h30m", "2d".
func humanDuration(d time.Duration) string {
	var b strings.Builder
	if days := d / (24 * time.Hour); days > 0 {
		fmt.Fprintf(&b, "%dd", days)
		d -= days * 24 * time.Hour
	}
	if h := d / time.Hour; h > 0 {
		fmt.Fprintf(&b, "%dh", h)
		d -= h * time.Hour
	}
	if m := d / time.Minute; m > 0 {
		fmt.Fprintf(&b, "%dm", m)
		d -= m * time.Minute
	}
	if s := d / time.Second; s > 0 || b.Len() == 0 {
		fmt.Fprintf(&b, "%ds", s)
	}
	return b.String()
}

// afterWords is s without its first n words and the space around them.
func afterWords(s string, n int) string {
	for range n {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
		i := strings.IndexFunc(s, unicode.IsSpace)
		if i < 0 {
			return ""
		}
		s = s[i:]
	}
	return strings.TrimSpace(s)
}

// beforeLastWords is s without its last n words and the space around them.
func beforeLastWords(s string, n int) string {
	for range n {
		s = strings.TrimRightFunc(s, unicode.IsSpace)
		i := strings.LastIndexFunc(s, unicode.IsSpace)
		if i < 0 {
			return ""
		}
		s = s[:i]
	}
	return strings.TrimSpace(s)
}
