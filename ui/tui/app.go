package tui

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"pincer/core/app"
	"pincer/core/event"
	"pincer/core/permission"
	"pincer/themes"
	"pincer/ui/tui/transcript"
)

// Options configure a Workbench.
type Options struct {
	// Commands lists the skills, custom commands and MCP prompts before a
	// Backend is attached (app.Setup.Commands: the catalog is read before the
	// store opens); nil: none until Attach.
	Commands func() []app.Command
	// Theme colours everything; nil: themes.FromEnv("") (dark, NO_COLOR honoured).
	Theme *themes.Theme
	// Screen is the screen to draw on; nil: the terminal (alternate screen).
	Screen tcell.Screen
	// Keys is the key map; nil: DefaultKeyMap().
	Keys *KeyMap
	// Model is shown in the status line until the session names its own.
	Model string
	// Mode is the permission mode shown in the status line until Attach,
	// which shows the agent's (or hands it one chosen meanwhile); "" is
	// "default".
	Mode string
	// Cwd is the workspace root, for would-be diffs; default: the session's cwd.
	Cwd string
	// ContextWindow is the model's context size in tokens, for the context-use
	// percentage until the log names another model's (model.changed); 0 shows
	// it as unknown.
	ContextWindow int64
	// WideColumns is the width from which the auto layout shows four
	// columns; 0: DefaultWideColumns (200).
	WideColumns int
	// LayoutFile keeps the layout the person chose (layout.cycle) across
	// runs: read in New, rewritten atomically on each change; "" keeps it
	// for this run only.
	LayoutFile string
	// Prompt, when set, is sent as a turn as soon as the backend is attached
	// (`pincer "prompt"`, as Claude Code's `claude "prompt"`).
	Prompt string
	// KeepInputFocus keeps the focus in the input box when a permission
	// request arrives (`[workbench] approval_focus = false`); by default a request
	// arriving while the box is empty takes the focus to the Approvals pane.
	KeepInputFocus bool
	// AllowBypass lets the person choose bypassPermissions in the workbench:
	// Shift+Tab and Ctrl+T step through it and /mode accepts it. As Claude
	// Code's, only with --allow-dangerously-skip-permissions or a start in
	// bypassPermissions; otherwise the cycle is default → acceptEdits → plan
	// → auto, and /mode bypassPermissions is refused, naming the flag.
	AllowBypass bool
}

// Pane indexes, in focus order.
const (
	paneTranscript = iota
	paneTimeline
	paneApprovals
	paneDiff
	paneInput
	paneCount
)

// Workbench is the full-screen workbench. Create it with New, Attach the
// backend and session when they are ready (the first frame does not wait for
// them), and Run it. Attach, Notify, SetStoreState, SessionID and Stop may be
// called from any goroutine, Stop any number of times; everything else runs
// on the tview event loop, which alone reads and writes the widgets and the
// UIState: background work and the event log reach it through the pump's
// inbox, so no lock guards them.
type Workbench struct {
	UIState

	opts   Options
	theme  *themes.Theme
	keys   *KeyMap
	app    *tview.Application
	screen *pasteScreen
	send   *sendScreen // inside screen: what reaches the terminal, the cursor's drawing (cursor.go)
	pump   *pump

	// Widgets: created in New, touched only on the event loop.
	timeline   *listPane
	approvals  *listPane
	diff       *diffPane
	input      *tview.TextArea
	reason     *tview.InputField
	browserBox *tview.Box // the sessions browser's frame
	promptBox  *tview.Box // the /model prompt overlay's frame
	root       *rootView

	layoutSave layoutSaver // keeps the chosen layout (layout_keep.go)
	frame      frameState  // a focus move made inside a frame (frame_focus.go)

	liveSession atomic.Pointer[string]   // the shown tab's liveID, published for SessionID on other goroutines
	tabSessions atomic.Pointer[[]string] // every tab's liveID, published for SessionIDs (tabs.go)
	firstTab    *sessionTab              // the tab New opens, which Attach shows the session in (set once: any goroutine reads it)

	ctx    context.Context // ends when the workbench stops: turns, diff workers
	cancel context.CancelFunc
	// cancelCause cancels ctx with a cause (StopFor): the running turn's
	// turn.cancelled reason.
	cancelCause context.CancelCauseFunc
	bg          sync.WaitGroup
	stopOnce    sync.Once
	stopped     atomic.Bool
}

// New builds the workbench on opts.Screen (or the terminal). The screen is
// initialised here, so the caller can Stop it even before Run.
func New(opts Options) (*Workbench, error) {
	th := opts.Theme
	if th == nil {
		th = themes.FromEnv("")
	}
	keys := opts.Keys
	if keys == nil {
		keys = DefaultKeyMap()
	}
	screen, initialised := opts.Screen, false
	if screen == nil {
		s, err := openTerminal()
		if err != nil {
			return nil, err
		}
		screen, initialised = s, true
	}
	if opts.Mode == "" {
		opts.Mode = string(permission.ModeDefault)
	}
	th.ApplyToTview()
	ctx, cancelCause := context.WithCancelCause(context.Background())
	cancel := func() { cancelCause(nil) }
	w := &Workbench{opts: opts, theme: th, keys: keys, app: tview.NewApplication(),
		UIState: UIState{zoom: -1, now: time.Now, in: inputState{history: newPromptHistory()}, mode: opts.Mode, focus: paneInput, lastList: paneApprovals,
			storeState:    "opening store…",
			approvalFocus: approvalFocus{keepIn: opts.KeepInputFocus}},
		ctx: ctx, cancel: cancel, cancelCause: cancelCause}
	w.pump = newPump(w.applyEvent, w.drawFrame, w.guard)
	w.pump.applyChild = w.applyChildEvent // children.go
	layout, lerr := loadLayout(opts.LayoutFile)
	w.layout = layout
	w.buildWidgets()
	w.firstTab = w.newTab()
	w.tabs, w.sessionTab = []*sessionTab{w.firstTab}, w.firstTab
	if lerr != nil {
		w.Notify("warning", "layout: "+lerr.Error())
	}
	w.send = newSendScreen(screen)
	w.screen = &pasteScreen{Screen: markScreen{w.send}, onError: func() { w.pump.stop() }, initialised: initialised}
	w.app.SetScreen(w.screen)
	// After SetScreen: on a screen of our own, earlier calls do not take effect.
	w.app.EnablePaste(true)
	w.app.EnableMouse(false)
	w.app.SetRoot(w.root, true)
	w.app.SetInputCapture(w.capture)
	w.app.SetFocus(w.input)
	return w, nil
}

// buildWidgets creates the panes and the input box.
func (w *Workbench) buildWidgets() {
	style := w.theme.Style
	w.timeline = newListPane(w.timelineRows, style, true)
	w.approvals = newListPane(w.approvalRows, style, false)
	w.diff = newDiffPane(w.diffContent, style)
	w.input = tview.NewTextArea().SetPlaceholder(w.inputPlaceholder())
	w.input.SetTextStyle(style("text")).SetPlaceholderStyle(style("muted"))
	w.input.SetBorder(true)
	w.reason = tview.NewInputField().SetLabel("Reason for the model: ")
	w.reason.SetBorder(true).SetTitle(" Deny with a reason (Enter sends, Esc cancels) ")
	w.browserBox = tview.NewBox().SetBorder(true).SetBorderColor(w.theme.Color("accent"))
	w.promptBox = tview.NewBox().SetBorder(true).SetBorderColor(w.theme.Color("accent")).SetTitle(" /model ")
	for _, b := range []*tview.Box{w.timeline.Box, w.approvals.Box, w.diff.Box, w.input.Box, w.reason.Box, w.browserBox, w.promptBox} {
		b.SetTitleAlign(tview.AlignLeft)
	}
	w.root = &rootView{Box: tview.NewBox(), w: w}
}

// newTranscriptView makes an empty transcript pane.
func (w *Workbench) newTranscriptView() *transcript.View {
	v := transcript.New(w.theme)
	v.SetBorder(true).SetTitle(" 1 Transcript ").SetTitleAlign(tview.AlignLeft)
	v.SetUnseenMarker(unseenMarker(w.keys))
	return v
}

// Attach connects the backend and shows sessionID, replaying its events from
// sequence 1. A permission mode chosen before (Shift+Tab while the store
// opened) goes to the backend, recorded on sessionID; otherwise the status
// line shows the backend's. Safe from any goroutine (it posts to the inbox:
// a Shift+Tab on the event loop comes before or after); call it once the
// store is open.
func (w *Workbench) Attach(be Backend, sessionID string) {
	w.pump.post(func() {
		w.be, w.storeState = be, ""
		if !w.modeSet {
			w.mode = string(be.Mode())
		} else if err := be.SetMode(w.ctx, sessionID, permission.Mode(w.mode)); err != nil {
			w.notice("error", "event log: "+err.Error())
		}
	})
	w.showSession(w.firstTab, be, sessionID, false)
	w.watchMCP(be)
	w.loadHabits(be)
	w.noteWaitingCandidates(be, sessionID) // candidate_waiting.go
	w.sendInitialPrompt()
}

// showSession switches tab t's panes to another session of be: the live
// one (turns go to it), or one shown read-only. The model is rebuilt by
// replaying the session's log from sequence 1 (a long log's tail first, then
// the whole: resume_tail.go); where the replay ends (the
// last sequence stored now), a turn still open has no process behind it and
// is shown as interrupted (Model.Interrupt) — unless another process holds
// the session's lease: then its turn is live and the workbench is attached
// to it (attach.go). It reads the store, so it runs
// off the event loop, and never while t runs a turn.
func (w *Workbench) showSession(t *sessionTab, be Backend, sessionID string, readOnly bool) {
	last, err := be.LastSequence(w.ctx, sessionID)
	if err != nil {
		w.Notify("error", "event log: "+err.Error())
	}
	runner, _ := be.Runner(w.ctx, sessionID) // after LastSequence: a turn open up to last whose lease is free has no process
	tail := last > tailEvents                // a long log: tail first, then the whole (resume_tail.go)
	reset := func() {
		t.model, t.sessionID, t.readOnly, t.replayEnd = NewModel(), sessionID, readOnly, last
		t.backfilling, t.tailInterrupted = tail, false
		t.runner, t.queued, t.subs.expanded = runner, "", nil
		t.travel, t.travelLoad = nil, travelLoad{}
		if runner != "" {
			w.noticeFor(t, "info", "attached: "+runner+" runs this session; its approvals can be answered here")
		}
		if !readOnly {
			t.liveID = sessionID
			if t == w.sessionTab {
				w.liveSession.Store(&sessionID)
			}
			w.publishSessions()
		}
		t.resetView = true
	}
	onErr := func(err error) { w.Notify("error", "event log: "+err.Error()) }
	if tail {
		w.pump.followTail(t.key, be.Log(), sessionID, last, reset, onErr, func(full *Model) { w.backfilled(t, full) })
		return
	}
	w.pump.follow(t.key, be.Log(), sessionID, reset, onErr)
}

// Notify shows a message of the given level ("info", "warning", "error") on
// the notices line, wrapped, and in the transcript (notice, notices.go).
// Safe from any goroutine: it posts to the pump's inbox, and the next frame
// shows it.
func (w *Workbench) Notify(level, text string) {
	w.pump.post(func() { w.notice(level, text) })
}

// SetStoreState replaces what the status line shows until Attach ("opening
// store…", or why the store could not open). Safe from any goroutine (the
// inbox, as Notify).
func (w *Workbench) SetStoreState(text string) {
	w.pump.post(func() { w.storeState = text })
}

// applyEvent folds one event of the session followed for tab key into that
// tab's model (a closed tab's are dropped). The pump's drain calls it, on
// the event loop.
func (w *Workbench) applyEvent(key int, ev event.Event) {
	t := w.tabByKey(key)
	if t == nil {
		return
	}
	if t.travel != nil { // time travel: the log grows, the step stays (timetravel.go)
		w.travelArrived(t, ev)
		return
	}
	t.travelLoad.keep(ev)
	t.model.Apply(ev)
	w.watchTurn(t, ev)
	w.watchSubagents(t, ev, false)
	if t.replayEnd != 0 && ev.Sequence >= t.replayEnd {
		t.replayEnd = 0
		if (!t.running || t.readOnly) && t.runner == "" {
			t.model.Interrupt()
			t.tailInterrupted = t.backfilling
		}
		if !t.backfilling { // else once the whole log's model is in (backfilled)
			w.watchSubagents(t, ev, true) // children.go
		}
	}
}

// drawFrame is the pump's redraw: it runs the frame's state sync on the event
// loop and draws. Called only from the pump's coalescer.
func (w *Workbench) drawFrame() {
	w.app.QueueUpdateDraw(w.syncFrame)
}

// Run shows the workbench and blocks until it stops (Stop, a double Ctrl+C, a
// terminal error). Before it returns, every goroutine the workbench started
// has ended (a turn still running is cancelled and given up to 10 s to end).
func (w *Workbench) Run() error {
	if w.stopped.Load() { // stopped before it ran (a signal during start-up)
		return nil
	}
	w.pump.start()
	err := w.app.Run()
	w.Stop()
	w.saveDraft() // the event loop has ended: its state is this goroutine's now
	done := make(chan struct{})
	go func() { w.bg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		return errors.Join(err, errors.New("a turn did not end within 10 s of quitting"))
	}
	return err
}

// Stop cancels any running turn, stops the pump, then the application (in
// that order: a redraw queued after the event loop ends would block forever).
// Safe from any goroutine, but on the event loop use stopAsync.
func (w *Workbench) Stop() { w.StopFor(nil) }

// StopFor is Stop with the cause the running turn is cancelled with
// (agent.SignalCause: "terminal closed (SIGHUP)"); nil is a person's cancel.
func (w *Workbench) StopFor(cause error) {
	w.stopOnce.Do(func() {
		w.stopped.Store(true)
		w.cancelCause(cause)
		w.pump.stop()
		w.app.Stop()
	})
}

// Abort restores the terminal at once without waiting for anything: for a
// panic, when the event loop may be gone and Stop could wait forever.
func (w *Workbench) Abort() {
	w.cancel()
	w.app.Stop()
}

// stopAsync stops the workbench from the event loop, which must keep running
// until the pump's last frame is drawn.
func (w *Workbench) stopAsync() { go w.Stop() }

// guard is deferred in every goroutine of the workbench: a panic restores the
// terminal before it crashes the program with its stack.
func (w *Workbench) guard() {
	if r := recover(); r != nil {
		w.cancel()
		w.app.Stop()
		panic(r)
	}
}

// goBackground runs f in a goroutine that Run waits for.
func (w *Workbench) goBackground(f func()) {
	w.bg.Add(1)
	go func() {
		defer w.bg.Done()
		defer w.guard()
		f()
	}()
}
