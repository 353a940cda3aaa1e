package e2e

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// TestServeTerminalPrintsCode: on a terminal (a tmux pane on a private
// socket) `pincer serve` prints the login URL with its one-time code, the
// token and the token file; the code logs in (303, a cookie) once, then 401.
func TestServeTerminalPrintsCode(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	e := newEnv(t, openaitest.Reply{Text: "unused"})
	name := fmt.Sprintf("pincer-serve-%d", rand.Uint32())
	cmd := e.command("serve", "--base-url", e.fake.BaseURL(), "--no-sandbox")
	var env []string
	for _, kv := range cmd.Env {
		if strings.HasPrefix(kv, "PINCER_") {
			env = append(env, "-e", kv)
		}
	}
	args := append([]string{"-L", name, "-f", "/dev/null", "new-session", "-d", "-x", "250", "-y", "20", "-c", e.repo}, env...)
	if out, err := exec.Command("tmux", append(args, pincerBin, "serve", "--base-url", e.fake.BaseURL(), "--no-sandbox")...).CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v %s", err, out)
	}
	t.Cleanup(func() {
		exec.Command("tmux", "-L", name, "send-keys", "C-c").Run()
		time.Sleep(300 * time.Millisecond)
		exec.Command("tmux", "-L", name, "kill-server").Run()
	})
	var screen string
	re := regexp.MustCompile(`pincer serve: (http://127\.0\.0\.1:\d+/\?login=[0-9a-f]+)\s+token: ([0-9a-f]{64})\s+token file: (\S+)`)
	var m []string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline) && m == nil; time.Sleep(100 * time.Millisecond) {
		out, _ := exec.Command("tmux", "-L", name, "capture-pane", "-p", "-J").Output()
		screen = string(out)
		m = re.FindStringSubmatch(screen)
	}
	if m == nil {
		t.Fatalf("the terminal shows no login URL, token and token file:\n%s", screen)
	}
	if b, _ := os.ReadFile(m[3]); strings.TrimSpace(string(b)) != m[2] {
		t.Fatalf("token file %s holds %q, the terminal shows %s", m[3], b, m[2])
	}
	if u, err := url.Parse(m[1]); err != nil || len(u.Query().Get("login")) != 32 {
		t.Fatalf("login URL %q", m[1])
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for i, want := range []int{http.StatusSeeOther, http.StatusUnauthorized} { // the printed login code works once
		resp, err := client.Get(m[1])
		if err != nil || resp.StatusCode != want || (want == http.StatusSeeOther) != (len(resp.Cookies()) == 1) {
			t.Fatalf("login URL, use %d: %v %v, want %d", i+1, resp, err, want)
		}
		resp.Body.Close()
	}
}
