package sandbox

import (
	"slices"
	"testing"
)

func TestBuildEnv(t *testing.T) {
	environ := []string{
		"PATH=/bin", "HOME=/home/u", "LANG=C.UTF-8", "LC_ALL=C", "TZ=UTC", "TERM=xterm",
		"OPENAI_API_KEY=sk-secret", "PINCER_API_KEY=pk-secret", "ANTHROPIC_API_KEY=ak",
		"GITHUB_TOKEN=ghp", "AWS_SECRET_ACCESS_KEY=aws", "GOFLAGS=-mod=mod",
		"MY_TOOL_HOME=/opt/t", "MYAPP_X=1", "MYAPP_Y=2", "PAGER=less", "MALFORMED", "=nokey",
	}
	got := buildEnv(environ, []string{"MY_TOOL_HOME", "MYAPP_*"}, "EXTRA=1", "TZ=Europe/Paris")
	want := []string{
		"PATH=/bin", "HOME=/home/u", "LANG=C.UTF-8", "LC_ALL=C", "TZ=Europe/Paris", "TERM=xterm",
		"GOFLAGS=-mod=mod", "MY_TOOL_HOME=/opt/t", "MYAPP_X=1", "MYAPP_Y=2",
		"PAGER=cat", "GIT_PAGER=cat", "GIT_EDITOR=true", "EDITOR=true", "VISUAL=true", "GIT_TERMINAL_PROMPT=0",
	}
	// GitSafeEnv's GIT_PAGER and GIT_TERMINAL_PROMPT are already there.
	for _, kv := range GitSafeEnv() {
		if !slices.Contains(want, kv) {
			want = append(want, kv)
		}
	}
	want = append(want, "EXTRA=1")
	if !slices.Equal(got, want) {
		t.Fatalf("buildEnv =\n%q\nwant\n%q", got, want)
	}
}
