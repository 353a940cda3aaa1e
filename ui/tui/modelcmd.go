package tui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"pincer/core/config"
	"pincer/core/config/modelflow"
	"pincer/core/message"
	"pincer/core/provider/catalog"
)

// ModelHooks give the workbench's /model commands what `pincer model` has: the
// configuration and the secret store (a fresh Env per command, so each one sees
// what the previous saved) and the model lister of /model refresh.
type ModelHooks struct {
	// Env loads the configuration and opens the secret store; the warnings are
	// shown. Its Out is replaced by the workbench.
	Env func() (*modelflow.Env, []error)
	// List fetches a provider's models (GET /models); nil: no /model refresh.
	List modelflow.Lister
}

// modelSubcommands are the words after /model, for completion and help.
var modelSubcommands = []slashCommand{
	{"configure", "[PROVIDER]", "set up a provider (the default command)"},
	{"switch", "[MODEL]", "another model of this provider, for this session"},
	{"default", "PROVIDER/MODEL", "the global default model"},
	{"status", "", "providers, readiness, key sources"},
	{"list", "", "every provider/model"},
	{"refresh", "[PROVIDER...]", "ask providers for their models"},
	{"add-model", "PROVIDER MODEL", "add a model name to a provider"},
	{"set", "PROVIDER api-key", "store a provider's API key (asked hidden)"},
}

// modelCommand runs /model with its arguments (event loop); it reports whether
// the input box should be cleared. Flows run in the background and ask through
// the prompt overlay; one runs at a time.
func (w *Workbench) modelCommand(args []string) bool {
	hooks := w.opts.Models
	if hooks == nil || hooks.Env == nil {
		w.Notify("info", "model: "+w.currentModel()+" (start pincer with --model to use another)")
		return true
	}
	sub, rest := "configure", []string(nil)
	if len(args) > 0 {
		sub, rest = args[0], args[1:]
	}
	usage := func(form string) bool {
		w.Notify("warning", "usage: /model "+form)
		return false
	}
	var flow func(ctx context.Context, env *modelflow.Env, out *bytes.Buffer) error
	p := overlayPrompter{w}
	switch sub {
	case "configure":
		if len(rest) > 1 {
			return usage("configure [PROVIDER]")
		}
		flow = func(ctx context.Context, env *modelflow.Env, _ *bytes.Buffer) error {
			id, err := modelflow.Configure(ctx, env, p, first(rest))
			if err == nil {
				w.Notify("info", "default model: "+id+" (new runs of pincer use it; /model switch changes this session's)")
			}
			return err
		}
	case "switch":
		if len(rest) > 1 {
			return usage("switch [MODEL]")
		}
		if !w.canSwitch() {
			return false
		}
		flow = func(ctx context.Context, env *modelflow.Env, _ *bytes.Buffer) error {
			return w.switchModel(ctx, env, p, first(rest))
		}
	case "default":
		if len(rest) != 1 {
			return usage("default PROVIDER/MODEL")
		}
		flow = func(ctx context.Context, env *modelflow.Env, _ *bytes.Buffer) error {
			return modelflow.SetDefault(ctx, env, rest[0])
		}
	case "status", "list":
		if len(rest) != 0 {
			return usage(sub)
		}
		current := w.currentModel()
		flow = func(ctx context.Context, env *modelflow.Env, out *bytes.Buffer) error {
			if sub == "status" {
				modelflow.Status(ctx, env, out)
			} else {
				modelflow.List(ctx, env, out, current)
			}
			return nil
		}
	case "refresh":
		if hooks.List == nil {
			w.Notify("warning", "/model refresh is not available here (try `pincer model refresh`)")
			return false
		}
		flow = func(ctx context.Context, env *modelflow.Env, _ *bytes.Buffer) error {
			w.Notify("info", "refreshing model lists…")
			return modelflow.Refresh(ctx, env, rest, hooks.List)
		}
	case "add-model":
		if len(rest) != 2 {
			return usage("add-model PROVIDER MODEL")
		}
		flow = func(_ context.Context, env *modelflow.Env, _ *bytes.Buffer) error {
			return modelflow.AddModel(env, rest[0], rest[1])
		}
	case "set":
		if len(rest) < 2 || len(rest) > 3 || rest[1] != "api-key" {
			return usage("set PROVIDER api-key (the key is asked, hidden)")
		}
		key := strings.Join(rest[2:], "")
		flow = func(ctx context.Context, env *modelflow.Env, _ *bytes.Buffer) error {
			return modelflow.SetAPIKey(ctx, env, p, rest[0], key)
		}
	default:
		w.Notify("warning", "unknown /model command "+sub+" (configure, switch, default, status, list, refresh, add-model, set)")
		return false
	}
	if !w.flowBusy.CompareAndSwap(false, true) {
		w.Notify("warning", "a /model command is already running")
		return false
	}
	buffered := sub == "status" || sub == "list"
	w.goBackground(func() {
		defer w.flowBusy.Store(false)
		env, warns := hooks.Env()
		for _, e := range warns {
			w.note("warning: " + e.Error())
		}
		var out bytes.Buffer
		if buffered {
			env.Out = &out
		} else {
			env.Out = noteWriter{w}
		}
		err := flow(w.ctx, env, &out)
		if s := strings.TrimRight(out.String(), "\n"); s != "" {
			w.note(s)
		}
		switch {
		case errors.Is(err, modelflow.ErrCancelled):
			w.Notify("info", "cancelled: nothing was saved")
		case err != nil:
			w.Notify("error", "/model "+sub+": "+err.Error())
		}
	})
	return true
}

// first is list[0], or "".
func first(list []string) string {
	if len(list) == 0 {
		return ""
	}
	return list[0]
}

// noteWriter adds each write, a line or a few from a flow, to the transcript
// as a notice.
type noteWriter struct{ w *Workbench }

func (n noteWriter) Write(b []byte) (int, error) {
	if s := strings.TrimRight(string(b), "\n"); s != "" {
		n.w.note(s)
	}
	return len(b), nil
}

// note adds a notice of the workbench's own to the transcript. Safe from any
// goroutine.
func (w *Workbench) note(text string) {
	w.mu.Lock()
	w.noteLocked(text)
	w.mu.Unlock()
	w.pump.markDirty()
}

// currentModel is the live session's model: the one /model switch chose, else
// the one the session was created with, else the workbench's.
func (w *Workbench) currentModel() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.modelLocked()
}

// modelLocked is currentModel for a caller holding the mutex.
func (w *Workbench) modelLocked() string {
	if m := w.switched[w.sessionID]; m != "" {
		return m
	}
	if m := w.model.Status.Model; m != "" {
		return m
	}
	return w.opts.Model
}

// canSwitch reports whether /model switch may run now, saying why not.
func (w *Workbench) canSwitch() bool {
	w.mu.Lock()
	ag, running, readOnly := w.ag, w.running || w.model.Status.Turn == TurnRunning, w.readOnly
	w.mu.Unlock()
	switch {
	case ag == nil:
		w.Notify("warning", "the store is still opening: try again in a moment")
	case running:
		w.Notify("warning", "a turn is running: switch the model after it ends")
	case readOnly:
		w.Notify("warning", "another session is shown read-only: press Esc to return first")
	default:
		return true
	}
	return false
}

// switchModel is /model switch: a model of the active provider for the live
// session only. The agent uses it from the next turn (with the catalog's
// context window and prices), and the session stores it.
func (w *Workbench) switchModel(ctx context.Context, env *modelflow.Env, p modelflow.Prompter, arg string) error {
	next, err := modelflow.Switch(env, p, w.currentModel(), arg)
	if err != nil {
		return err
	}
	prov, model, _ := config.ParseModelID(next)
	w.mu.Lock()
	ag, id, running := w.ag, w.liveID, w.running || w.model.Status.Turn == TurnRunning
	w.mu.Unlock()
	if ag == nil || running { // a turn started while the user chose
		return errors.New("a turn is running: switch the model after it ends")
	}
	s, err := ag.Store().GetSession(ctx, id)
	if err != nil {
		return err
	}
	s.Model = next
	if err := ag.Store().PutSession(ctx, s); err != nil {
		return err
	}
	var window int64
	var cost func(message.Usage) *float64
	if m, ok := catalog.Lookup(prov, model); ok {
		pc, _ := env.Config.Lookup(prov)
		window = m.ContextWindow
		cost = func(u message.Usage) *float64 { return m.Cost(u, pc.API != config.APIAnthropic) }
	}
	ag.SetModel(model, next, window, cost)
	w.mu.Lock()
	w.switched[id] = next
	w.opts.ContextWindow = window
	w.mu.Unlock()
	w.Notify("info", fmt.Sprintf("this session now uses %s (the default is unchanged)", next))
	return nil
}

// completeModel completes the subcommand of "/model wor…"; it reports whether
// it did anything.
func (w *Workbench) completeModel(text string) bool {
	word, ok := strings.CutPrefix(text, "/model ")
	if !ok || strings.ContainsAny(word, " \n") {
		return false
	}
	var match []string
	for _, c := range modelSubcommands {
		if strings.HasPrefix(c.name, word) {
			match = append(match, c.name)
		}
	}
	if len(match) == 0 {
		return false
	}
	common := match[0]
	for _, m := range match[1:] {
		for !strings.HasPrefix(m, common) {
			common = common[:len(common)-1]
		}
	}
	if len(match) == 1 {
		common += " "
	}
	if len(common) <= len(word) {
		return false
	}
	w.input.SetText("/model "+common, true)
	return true
}

// modelHints are the help bar's items while "/model …" is typed.
func modelHints(text string) []string {
	word, ok := strings.CutPrefix(text, "/model ")
	if !ok || strings.ContainsAny(word, " \n") {
		return nil
	}
	var items []string
	for _, c := range modelSubcommands {
		if strings.HasPrefix(c.name, word) {
			items = append(items, strings.TrimSpace(c.name+" "+c.args)+" "+c.help)
		}
	}
	return items
}
