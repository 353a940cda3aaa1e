package app

import (
	"path/filepath"
	"sync"

	"pincer/core/checkpoint"
	"pincer/core/permission"
	"pincer/persist"
	"pincer/sandbox"
)

// recorders are the checkpoint Recorders of this process, one per workspace
// root and store, so that a session's agents and subagents on one tree share
// the baseline (the first scan reads the tree once).
var recorders = struct {
	sync.Mutex
	m map[recorderKey]*checkpoint.Recorder
}{m: map[recorderKey]*checkpoint.Recorder{}}

type recorderKey struct {
	root  string
	store persist.Store
}

// checkpointRecorder is the Recorder of ws's root into store, nil when the
// root cannot be opened (the agent then records nothing, as before issue 15).
// Protected paths (core/permission.Protected) are not tracked by a scan.
func checkpointRecorder(store persist.Store, ws *sandbox.Workspace) *checkpoint.Recorder {
	root := ws.Root()
	key := recorderKey{root, store}
	recorders.Lock()
	defer recorders.Unlock()
	if r := recorders.m[key]; r != nil {
		return r
	}
	roots := ws.Roots()
	r, err := checkpoint.New(store, root, checkpoint.Options{Skip: func(rel string) (string, bool) {
		return permission.Protected(filepath.Join(root, filepath.FromSlash(rel)), roots)
	}})
	if err != nil {
		return nil
	}
	recorders.m[key] = r
	return r
}
