package openai

import (
	"os"
	"testing"

	"pincer/core/provider/internal/streamcase"
)

// TestMain prints, after the tests, how many captures of shared/cases/streams were
// skipped when that directory is absent.
func TestMain(m *testing.M) { os.Exit(streamcase.Main(m)) }
