package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// script writes an executable shell script to dir/name and returns its path.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// runner builds a Runner for proj and fails on any definition error.
func runner(t *testing.T, proj string, defs map[Event][]Def) *Runner {
	t.Helper()
	r, errs := NewRunner(defs, proj)
	if len(errs) > 0 {
		t.Fatalf("NewRunner: %v", errs)
	}
	return r
}

// one is a Runner with a single hook for ev.
func one(t *testing.T, proj string, ev Event, matcher, command string) *Runner {
	t.Helper()
	return runner(t, proj, map[Event][]Def{ev: {{Matcher: matcher, Command: command}}})
}

// readJSON decodes the JSON object in file path.
func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: %v: %s", path, err, data)
	}
	return m
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// readPid reads a pid a hook wrote, waiting briefly for the file.
func readPid(t *testing.T, path string) int {
	t.Helper()
	for range 100 {
		data, err := os.ReadFile(path)
		if s := strings.TrimSpace(string(data)); err == nil && s != "" {
			var pid int
			if _, err := fmt.Sscan(s, &pid); err == nil {
				return pid
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no pid in %s", path)
	return 0
}

// processGone reports whether pid no longer runs (absent, or a zombie).
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return true
	}
	// The state follows the parenthesised command name.
	if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] == 'Z'
	}
	return false
}

// waitGone fails the test unless pid is gone within a few seconds.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for range 100 {
		if processGone(pid) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	t.Errorf("process %d still runs", pid)
}

func removeAll(t *testing.T, files []string) {
	t.Helper()
	for _, f := range files {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
}

func killPid(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }
