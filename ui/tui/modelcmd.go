package tui

import (
	"bytes"
	"errors"
	"strings"

	"pincer/core/app"
)

// modelSubcommands are the words after /model, for completion and help: the
// backend's commands.
var modelSubcommands = func() []slashCommand {
	out := make([]slashCommand, len(app.ModelSubcommands))
	for i, c := range app.ModelSubcommands {
		out[i] = slashCommand{name: c.Name, args: c.Args, help: c.Help}
	}
	return out
}()

// modelCommand runs /model with its arguments (event loop); it reports whether
// the input box should be cleared. The backend checks the command; it runs in
// the background and asks through the prompt overlay; one runs at a time.
func (w *Workbench) modelCommand(args []string) bool {
	be, live := w.be, w.liveID
	if be == nil {
		w.Notify("warning", "the store is still opening: try again in a moment")
		return false
	}
	cmd, err := be.ModelCommand(live, args)
	var usage *app.ModelUsageError
	switch {
	case errors.Is(err, app.ErrNoModelConfig):
		w.Notify("info", "model: "+w.currentModel()+" (start pincer with --model to use another)")
		return true
	case errors.As(err, &usage):
		w.Notify("warning", usage.Text)
		return false
	case err != nil:
		w.Notify("error", "/model: "+err.Error())
		return false
	}
	if (cmd.Name == "switch" || cmd.Name == "pick") && !w.canSwitch() {
		return false
	}
	if w.flowBusy {
		w.Notify("warning", "a /model command is already running")
		return false
	}
	w.flowBusy = true
	w.goBackground(func() {
		defer w.pump.post(func() { w.flowBusy = false; w.dropTypeAhead() })
		var out bytes.Buffer
		io := app.ModelIO{Prompter: overlayPrompter{w}, Out: noteWriter{w}, Note: w.note, Notify: w.Notify}
		if cmd.Buffered {
			io.Out = &out
		}
		err := cmd.Run(w.ctx, io)
		if s := strings.TrimRight(out.String(), "\n"); s != "" {
			w.note(s)
		}
		switch {
		case errors.Is(err, app.ErrCancelled):
			w.Notify("info", "cancelled: nothing was saved")
		case err != nil:
			w.Notify("error", "/model "+cmd.Name+": "+err.Error())
		}
	})
	return true
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
// goroutine (the pump's inbox).
func (w *Workbench) note(text string) {
	w.pump.post(func() { w.addNote(text) })
}

// currentModel is the model of the shown session, else Options.Model.
func (w *Workbench) currentModel() string {
	if m := w.model.Status.Model; m != "" {
		return m
	}
	return w.opts.Model
}

// contextWindow is the context window of the shown session's model in
// tokens (0: unknown): the latest the log reported (model.changed, usage),
// else the workbench's.
func (w *Workbench) contextWindow() int64 {
	if s := w.model.Status; s.WindowReported {
		return s.ContextWindow
	}
	return w.opts.ContextWindow
}

// canSwitch reports whether /model switch may run now, saying why not.
func (w *Workbench) canSwitch() bool {
	be, running, readOnly := w.be, w.running || w.model.Status.Turn == TurnRunning, w.readOnly
	switch {
	case be == nil:
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
