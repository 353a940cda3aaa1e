package cli

import (
	"runtime"
	"strings"
	"testing"
)

// TestVersionLine: the version, and what the build was made with.
func TestVersionLine(t *testing.T) {
	got := versionLine()
	if !strings.HasPrefix(got, "pincer "+Version+" (") || !strings.Contains(got, runtime.GOOS+"/"+runtime.GOARCH) {
		t.Errorf("versionLine() = %q", got)
	}
}
