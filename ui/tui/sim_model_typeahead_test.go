package tui

import (
	"strings"
	"testing"
	"time"

	"pincer/core/config/modelflow"
	"pincer/core/provider/providertest"
)

// TestModelKeyTypedAheadStaysHidden (the flaky TestModelConfigureThroughOverlay):
// an API key typed or pasted after `/model set … api-key` but before its
// secret prompt opened went into the input box, in clear on the screen. Keys
// typed while a /model flow runs with no prompt open wait for its next prompt.
func TestModelKeyTypedAheadStaysHidden(t *testing.T) {
	_, env := modelHome(t)
	gate := make(chan struct{})
	slow := func() (*modelflow.Env, []error) { <-gate; return env() }
	b, _ := modelBench(t, &providertest.Scripted{}, slow)
	b.slash("/model set openai api-key")
	b.waitModel("the flow to start", func(*Model) bool { return b.w.flowBusy })
	b.typeText(simKey)
	time.Sleep(20 * burstGap) // room for the keys to arrive (a wait, not a timing assertion)
	b.noKeyOnScreen()
	close(gate)
	b.waitText("API key for openai", "> "+strings.Repeat("•", len(simKey)))
	b.noKeyOnScreen()
	b.enter()
	b.waitText("· API key for openai ")
	b.noKeyOnScreen()
}
