package tui

import (
	"path/filepath"
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/core/config"
	"pincer/core/provider/providertest"
)

// TestBareModelSwitchesWhenConfigured (issue 12): a bare /model, with the
// session's provider configured, lists its models to pick one for the
// session (as /model switch); the setup flow is for when nothing is
// configured.
func TestBareModelSwitchesWhenConfigured(t *testing.T) {
	home, hooks := modelHome(t)
	err := config.Update(filepath.Join(home, "config.toml"), func(u *config.UserFile) error {
		return u.SetProvider("fake", config.ProviderSettings{Kind: config.KindCustom, API: config.APIChat,
			BaseURL: "http://127.0.0.1:9/v1", Model: "m", Models: []string{"m", "m2"}})
	})
	if err != nil {
		t.Fatal(err)
	}
	b, sid := modelBench(t, &providertest.Scripted{}, hooks)
	b.slash("/model")
	b.waitText("Model for this session (fake)", "m · current")
	b.typeText("j")
	b.enter()
	b.waitText("fake/m2 · default · " + shortID(sid))
}

// TestBareModelSetsUpWhenNothingIsConfigured: with no provider configured
// and none to run on, a bare /model opens the setup flow.
func TestBareModelSetsUpWhenNothingIsConfigured(t *testing.T) {
	_, hooks := modelHome(t)
	b, _ := modelBench(t, nil, hooks)
	b.slash("/model")
	b.waitText("Provider")
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	b.waitText("cancelled: nothing was saved")
}

// TestBareModelPicksForAnUnconfiguredProvider: a session running on a
// provider the configuration does not name (pincer --base-url URL --model
// myvllm/foo) picks among its models, the current one listed, rather than
// opening the provider setup (new user r19: the provider list opened).
func TestBareModelPicksForAnUnconfiguredProvider(t *testing.T) {
	_, hooks := modelHome(t)
	b, _ := modelBench(t, &providertest.Scripted{}, hooks)
	b.slash("/model")
	b.waitText("Model for this session (fake)", "m · current")
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	b.waitText("cancelled: nothing was saved")
}
