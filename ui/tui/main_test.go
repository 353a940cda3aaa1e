package tui

import (
	"errors"
	"os"
	"testing"

	"github.com/zalando/go-keyring"
)

// TestMain makes the OS keyring unavailable for the whole package, once,
// before any test runs: go-keyring's mock is a package variable without a
// lock, so setting it per test raced with background work (a /model flow's
// key lookup) still running from the test before. Keys go to the encrypted
// file, as on a machine without a secret service.
func TestMain(m *testing.M) {
	keyring.MockInitWithError(errors.New("The name org.freedesktop.secrets was not provided by any .service files"))
	os.Exit(m.Run())
}
