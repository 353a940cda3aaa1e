package daemon

import (
	"fmt"
	"testing"
)

func TestDaemonEnvKeepsNoSecret(t *testing.T) {
	got := daemonEnv([]string{"PATH=/bin", "PINCER_API_KEY=sk-1", "OPENAI_API_KEY=sk-2", "XDG_RUNTIME_DIR=/run/u",
		"PINCER_HOME=/h", "HOME=/root", "AWS_SECRET_ACCESS_KEY=x"})
	if fmt.Sprint(got) != "[PATH=/bin XDG_RUNTIME_DIR=/run/u PINCER_HOME=/h HOME=/root]" {
		t.Fatalf("daemonEnv = %v", got)
	}
}
