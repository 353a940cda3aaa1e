package agent

import (
	"context"
	"encoding/json"

	"pincer/tools"
)

// Diagnoser feeds language-server diagnostics back to the model (core/lsp's
// Manager through core/app): told of the files a tool call changed, it
// returns the text of the dynamic prompt's diagnostics segment for the
// session's next model call.
type Diagnoser interface {
	// TurnStarted begins a turn of session: the files changed before are
	// no longer reported.
	TurnStarted(session string)
	// FilesChanged notifies the servers of the absolute paths a tool call
	// changed and waits, bounded, for their diagnostics.
	FilesChanged(ctx context.Context, session string, paths []string)
	// Segment is the diagnostics segment's text for session's next model
	// call ("" when the changed files have no errors or warnings).
	Segment(session string) string
}

// diagnose tells the Diagnoser about the files a tool call that ran without
// error changed: a tool of KindEdit that lists its paths (Write, Edit,
// MultiEdit, apply_patch, NotebookEdit: tools.PathLister). Bash lists none.
func (t *turn) diagnose(ctx context.Context, tl tools.Tool, env *tools.Env, input json.RawMessage) {
	d := t.a.cfg.Diagnostics
	if d == nil || tl.Spec().Kind != tools.KindEdit {
		return
	}
	if paths := tools.Paths(tl, env, input); len(paths) > 0 {
		d.FilesChanged(ctx, t.sess.ID, paths)
	}
}

// withDiagnostics appends the Diagnoser's segment for the turn's session to
// the dynamic prompt dyn.
func (t *turn) withDiagnostics(dyn string) string { return t.a.withDiagnostics(t.sess.ID, dyn) }

// withDiagnostics appends the Diagnoser's segment for session to the dynamic
// prompt dyn.
func (a *Agent) withDiagnostics(session, dyn string) string {
	if a.cfg.Diagnostics == nil {
		return dyn
	}
	seg := a.cfg.Diagnostics.Segment(session)
	switch {
	case seg == "":
		return dyn
	case dyn == "":
		return seg
	}
	return dyn + "\n\n" + seg
}
