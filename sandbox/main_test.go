package sandbox

import (
	"os"
	"testing"
)

// TestMain lets this test binary be the sandbox helper: the Executor re-executes
// it as `sandbox.test sandbox-exec --spec ... -- CMD`.
func TestMain(m *testing.M) {
	RunHelperIfRequested()
	os.Exit(m.Run())
}
