package web

import (
	"context"
	"net/http"
	"sync"

	"pincer/core/app"
)

// workspace is one directory's Run: prepared exactly as `pincer` in that
// directory would be (its config, rules, hooks, sandbox, instructions), over
// the server's shared store, with its approval queue behind the server's
// pending set, and the Backend every route drives it through.
type workspace struct {
	root string // the Run's workspace root (resolved)
	run  *app.Run
	be   *app.Backend
	// slash is what a turn's input starting with /name is checked against
	// (slash.go): the agent's commands, the catalog's, the workbench's.
	slash app.SlashCheck

	mu      sync.Mutex
	started map[string]bool // sessions whose SessionStart hooks ran here: SessionEnd at close
}

// openWorkspace prepares and starts dir's Run. session is a stored session
// of dir the Run resumes ("": the Run makes a new one).
func openWorkspace(ctx context.Context, s *Server, dir, session string) (*workspace, error) {
	opts := s.opts.Base
	opts.Dir, opts.Session, opts.Continue = dir, session, false
	opts.FailClosed, opts.ModelOptional = false, false
	if opts.Command == "" {
		opts.Command = "pincer serve"
	}
	setup, err := app.Prepare(opts)
	if err != nil { // a config file that does not parse (FILE:LINE), a bad flag, no model
		return nil, errorf(http.StatusBadRequest, CodeBadRequest, "workspace %s: %v", dir, err)
	}
	for _, warn := range setup.Warnings {
		s.logf("workspace %s: warning: %s", dir, warn)
	}
	queue := app.NewApprovalQueue()
	run, err := setup.StartShared(s.ctx, s.pending.approver(queue), s.store) // its MCP servers live with the server, not the request
	if err != nil {
		return nil, err
	}
	be := app.NewBackend(run, queue)
	be.ModelEnv = app.ModelEnvAt(run.Workspace.Root())
	w := &workspace{root: cleanDir(run.Workspace.Root()), run: run, be: be, started: map[string]bool{},
		slash: slashCheck(setup, s.opts.WorkbenchCommands)}
	w.start(ctx, run.SessionID, run.Source())
	s.logf("workspace %s: model %s", w.root, setup.Model.ID())
	return w, nil
}

// start runs sessionID's SessionStart hooks (source "startup", "resume")
// the first time this workspace touches it.
func (w *workspace) start(ctx context.Context, sessionID, source string) {
	w.mu.Lock()
	first := !w.started[sessionID]
	w.started[sessionID] = true
	w.mu.Unlock()
	if first {
		w.run.Agent.StartSession(context.WithoutCancel(ctx), sessionID, source)
	}
}

// newSession makes another session in the workspace (its SessionStart hooks
// run, "startup").
func (w *workspace) newSession(ctx context.Context) (string, error) {
	id, err := w.be.OpenSession(ctx, "")
	if err == nil {
		w.mu.Lock()
		w.started[id] = true
		w.mu.Unlock()
	}
	return id, err
}

// close runs the SessionEnd hooks ("exit") of the sessions started here and
// closes the Run.
func (w *workspace) close() error {
	w.mu.Lock()
	ids := make([]string, 0, len(w.started))
	for id := range w.started {
		ids = append(ids, id)
	}
	w.mu.Unlock()
	for _, id := range ids {
		w.be.EndSession(context.Background(), id, "exit")
	}
	return w.run.Close()
}
