package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

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
	// The line is in the input box before Enter: under the race detector on
	// a loaded machine its 26 keys alone can take longer than waitModel's
	// wait, which then ran out before the Enter was read.
	b.key(tcell.KeyRune, '0', tcell.ModAlt)
	b.typeText("/model set openai api-key")
	b.waitInput("/model set openai api-key")
	b.enter()
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
