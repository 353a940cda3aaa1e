package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTUIWideCharactersPartialUpdates types wide and narrow characters over
// one another in the input box of the real workbench in tmux, which only
// gets the cells that changed (issue 19): after each step the row tmux shows
// is exactly the text, with no half of a wide character left behind.
func TestTUIWideCharactersPartialUpdates(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not on PATH")
	}
	e := newEnv(t)
	script := filepath.Join(t.TempDir(), "run.sh")
	body := fmt.Sprintf(`#!/bin/sh
cd '%s' || exit 1
export PINCER_HOME='%s' PINCER_API_KEY=test-key PINCER_MODEL=fake/test-model LANG=C.UTF-8 LC_ALL=C.UTF-8
'%s' --base-url '%s' --no-sandbox 2>'%s'
exec sleep 600
`, e.repo, e.home, pincerBin, e.fake.BaseURL(), filepath.Join(e.home, "stderr.txt"))
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	tm := newTmux(t, 100, 30, script)
	tm.waitText("1 Transcript", "· idle ·")
	input := func(sc string) string {
		lines := strings.Split(sc, "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, "╔ Input") && i+1 < len(lines) {
				return strings.TrimRight(strings.TrimSuffix(strings.TrimRight(lines[i+1], " "), "║"), " ")
			}
		}
		return "no input box"
	}
	steps := []struct {
		text, keys string
		backspaces int
		want       string
	}{
		{text: "a中b", want: "║a中b"},
		{backspaces: 2, want: "║a"},
		{text: "xyz", want: "║axyz"}, // x and y where 中 was
		{backspaces: 3, want: "║a"},
		{text: "👍👍", want: "║a👍👍"},
		{backspaces: 2, want: "║a"},
		{text: "ijkl", want: "║aijkl"},
		{backspaces: 2, want: "║aij"},
		{text: "漢字", want: "║aij漢字"},
		{backspaces: 1, want: "║aij漢"},
		{text: "q", want: "║aij漢q"},
	}
	for i, st := range steps {
		if st.text != "" {
			tm.typeText(st.text)
		}
		for k := 0; k < st.backspaces; k++ {
			tm.keys("BSpace")
		}
		tm.waitFor(fmt.Sprintf("step %d: the input row %q", i, st.want), func(sc string) bool { return input(sc) == st.want })
	}
}
