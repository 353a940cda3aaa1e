package app

import (
	"context"
	"path/filepath"
	"sync"

	"pincer/core/agent"
	"pincer/core/checkpoint"
	"pincer/core/config"
	"pincer/core/permission"
	"pincer/persist"
	"pincer/sandbox"
)

// recorders are the checkpoint Recorders of this process, one per workspace
// root, store and limits, so that a session's agents and subagents on one
// tree share the baseline (the first scan reads the tree once).
var recorders = struct {
	sync.Mutex
	m map[recorderKey]*checkpoint.Recorder
}{m: map[recorderKey]*checkpoint.Recorder{}}

type recorderKey struct {
	root                 string
	store                persist.Store
	file, session, total int64
}

// checkpointsFrom reads the user's [checkpoints] table (core/config; a
// project's is a warning, never applied) into the report.
func checkpointsFrom(src *config.Sources, report *configReport) config.CheckpointsSettings {
	set, errs := src.Checkpoints()
	report.add(errs)
	return set
}

// checkpointOptions are the Recorder limits of set in bytes (0: the
// checkpoint package's default).
func checkpointOptions(set config.CheckpointsSettings) checkpoint.Options {
	return checkpoint.Options{MaxFileBytes: int64(set.MaxFileMB) << 20,
		SessionBudget: int64(set.SessionBudgetMB) << 20, TotalBudget: int64(set.TotalBudgetMB) << 20}
}

// checkpointRecorder is the Recorder of ws's root into store with set's
// limits, nil when [checkpoints] enabled = false or the root cannot be
// opened (the agent then records nothing, as before issue 15). Protected
// paths (core/permission.Protected) are not tracked by a scan.
func checkpointRecorder(store persist.Store, ws *sandbox.Workspace, set config.CheckpointsSettings, red *agent.Redactor) *checkpoint.Recorder {
	if !set.Enabled() {
		return nil
	}
	root := ws.Root()
	opts := checkpointOptions(set)
	if red.Active() {
		opts.Secret = red.Holds // a file holding a key is noted, never stored
	}
	key := recorderKey{root, store, opts.MaxFileBytes, opts.SessionBudget, opts.TotalBudget}
	recorders.Lock()
	defer recorders.Unlock()
	if r := recorders.m[key]; r != nil {
		return r
	}
	roots := ws.Roots()
	opts.Skip = func(rel string) (string, bool) {
		return permission.Protected(filepath.Join(root, filepath.FromSlash(rel)), roots)
	}
	r, err := checkpoint.New(store, root, opts)
	if err != nil {
		return nil
	}
	recorders.m[key] = r
	return r
}

// CheckpointUsage is what checkpoints take in this user's store (pincer
// doctor): checkpoint.Measure over the store opened for reading (an empty
// usage when pincer has never stored anything; nothing is created).
func CheckpointUsage(ctx context.Context) (checkpoint.Usage, error) {
	store, err := OpenStoreForReading()
	if err != nil {
		return checkpoint.Usage{}, err
	}
	defer store.Close()
	return checkpoint.Measure(ctx, store)
}
