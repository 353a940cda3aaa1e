package sandbox

import (
	"slices"
	"strings"
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
		"PAGER=cat", "GIT_PAGER=cat", "MANPAGER=cat", "SYSTEMD_PAGER=cat", "GIT_EDITOR=true", "GIT_SEQUENCE_EDITOR=true",
		"EDITOR=true", "VISUAL=true", "GIT_MERGE_AUTOEDIT=no", "GIT_TERMINAL_PROMPT=0", "GCM_INTERACTIVE=never",
		"DEBIAN_FRONTEND=noninteractive", "PIP_NO_INPUT=1",
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

func TestAbsolutePathDropsRelativeEntries(t *testing.T) {
	cases := map[string]string{
		"/usr/bin:/bin":                   "/usr/bin:/bin",
		"node_modules/.bin:.:/usr/bin":    "/usr/bin",
		"/usr/local/bin::/usr/bin:":       "/usr/local/bin:/usr/bin",
		"./bin:bin:~/bin:/opt/x/bin:../y": "/opt/x/bin",
		"":                                "",
	}
	for in, want := range cases {
		if got := AbsolutePath(in); got != want {
			t.Errorf("AbsolutePath(%q) = %q, want %q", in, got, want)
		}
	}
	env := buildEnv([]string{"PATH=.:node_modules/.bin:/usr/bin"}, nil)
	for _, kv := range env {
		if strings.HasPrefix(kv, "PATH=") && kv != "PATH=/usr/bin" {
			t.Errorf("command env has %s", kv)
		}
	}
}
