package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// agent is one binary under test: pincer (the baseline or the new build) or
// Crush. Each has its own home (HOME, PINCER_HOME / XDG dirs) and project
// directories under the harness's work directory, so nothing touches a real
// user's files and no run sees another agent's state.
type agent struct {
	Label string // column name: "base", "new", "crush"
	Kind  string // "pincer" or "crush"
	Bin   string // absolute path
	dir   string // work dir of this agent
}

const (
	kindPincer = "pincer"
	kindCrush  = "crush"
)

// home is the agent's home for one scenario ("fresh", "continue-2000").
func (a *agent) home(scenario string) string { return filepath.Join(a.dir, scenario, "home") }

// project is the agent's working directory for one scenario: empty, so
// Crush offers no project initialisation and pincer finds no instructions.
func (a *agent) project(scenario string) string { return filepath.Join(a.dir, scenario, "proj") }

// prepare makes the scenario's home and project and writes the agent's
// configuration pointing it at the fake model.
func (a *agent) prepare(scenario, baseURL string) error {
	home, proj := a.home(scenario), a.project(scenario)
	for _, d := range []string{home, proj} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	if a.Kind != kindCrush {
		return nil
	}
	cfg := map[string]any{
		"providers": map[string]any{"fake": map[string]any{
			"type": "openai-compat", "base_url": baseURL, "api_key": "sk-fake", "discover_models": false,
			"models": []any{map[string]any{"id": "m", "name": "m", "context_window": 200000, "default_max_tokens": 4096}},
		}},
		"models": map[string]any{
			"large": map[string]any{"model": "m", "provider": "fake"},
			"small": map[string]any{"model": "m", "provider": "fake"},
		},
		"options": map[string]any{"disable_provider_auto_update": true, "disable_metrics": true,
			"disable_default_providers": true, "notifications": "disabled"},
	}
	b, _ := json.MarshalIndent(cfg, "", "  ")
	d := filepath.Join(home, ".config", "crush")
	if err := os.MkdirAll(d, 0o700); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(d, "crush.json"), b, 0o600)
}

// env is what the agent's process gets on top of the tmux server's
// environment.
func (a *agent) env(scenario string) []string {
	home := a.home(scenario)
	e := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "OPENAI_API_KEY=sk-fake", "TERM=tmux-256color", "COLORTERM=truecolor"}
	switch a.Kind {
	case kindPincer:
		e = append(e, "PINCER_HOME="+home)
	case kindCrush:
		e = append(e, "CRUSH_DISABLE_PROVIDER_AUTO_UPDATE=1", "CRUSH_DISABLE_METRICS=1", "DO_NOT_TRACK=1")
	}
	return e
}

// argv is the command line of the interactive agent, continuing the newest
// session of its directory when cont is set.
func (a *agent) argv(baseURL string, cont bool) []string {
	switch a.Kind {
	case kindPincer:
		argv := []string{a.Bin, "--model", "openai/m", "--base-url", baseURL}
		if cont {
			argv = append(argv, "--continue")
		}
		return argv
	default:
		argv := []string{a.Bin}
		if cont {
			argv = append(argv, "--continue")
		}
		return argv
	}
}

// ready says whether the pane shows the agent's complete first screen of a
// fresh start: for pincer the input box and the status line of a session
// that is ready ("· idle ·"); for Crush its input prompt and the model.
func (a *agent) ready(screen string) bool {
	switch a.Kind {
	case kindPincer:
		return strings.Contains(screen, "Ask pincer") && strings.Contains(screen, "· idle ·")
	default:
		return strings.Contains(screen, crushReadyText) && strings.Contains(screen, "m")
	}
}

// sessionReady says whether pincer's status line names the new session
// (its id, 8 hex digits, appears once the store has made it); the first
// frame may come before that. Crush shows no such thing: always true.
func (a *agent) sessionReady(screen string) bool {
	if a.Kind != kindPincer {
		return true
	}
	return sessionIDInStatus.MatchString(screen)
}

var sessionIDInStatus = regexp.MustCompile(` · [0-9a-f]{8} · `)

// crushReadyText is what Crush's input box shows when it is ready for a
// prompt (its placeholder).
var crushReadyText = "Ready"

// makeSession writes a finished session of n messages into the scenario's
// store and returns the last line a complete screen shows.
func (a *agent) makeSession(scenario string, n int, longsession, baseURL string) (string, error) {
	switch a.Kind {
	case kindPincer:
		cmd := exec.Command(longsession, "-messages", fmt.Sprint(n), "-cwd", a.project(scenario))
		cmd.Env = append(os.Environ(), a.env(scenario)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("%s: %v: %s", longsession, err, out)
		}
		for _, line := range strings.Split(string(out), "\n") {
			if rest, ok := strings.CutPrefix(line, "last-line "); ok {
				return strings.TrimSpace(rest), nil
			}
		}
		return "", fmt.Errorf("%s printed no last-line: %s", longsession, out)
	default:
		return crushSession(a, scenario, n, baseURL)
	}
}

// oneShot runs a headless one-shot prompt (pincer run / crush run) to its
// end and returns its wall time.
func (a *agent) oneShot(scenario, baseURL, prompt string) (time.Duration, error) {
	var argv []string
	switch a.Kind {
	case kindPincer:
		argv = []string{a.Bin, "run", "--model", "openai/m", "--base-url", baseURL, prompt}
	default:
		argv = []string{a.Bin, "run", "--quiet", prompt}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = a.project(scenario)
	cmd.Env = append(os.Environ(), a.env(scenario)...)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	d := time.Since(start)
	if err != nil {
		return d, fmt.Errorf("%s: %v: %s", strings.Join(argv, " "), err, out)
	}
	return d, nil
}

// daemons are the pincer store daemons serving this agent's homes, or
// only the scenario's home when scenario is not "" (found by their --store
// argument); Crush has none.
func (a *agent) daemons(scenario string) []int {
	if a.Kind != kindPincer {
		return nil
	}
	under := a.dir + string(filepath.Separator)
	if scenario != "" {
		under = a.home(scenario) + string(filepath.Separator)
	}
	var out []int
	for _, p := range findProcess(a.Bin, "store-daemon") {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
		if strings.Contains(string(b), under) {
			out = append(out, p)
		}
	}
	return out
}
