package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/checkpoint"
	"pincer/core/config"
	"pincer/persist/memory"
)

// TestCheckpointsConfig: the user's [checkpoints] reaches the Setup and the
// Recorder's limits (MiB to bytes); a project's is a warning and never turns
// checkpoints off; enabled = false gives no Recorder.
func TestCheckpointsConfig(t *testing.T) {
	ws := t.TempDir()
	home := t.TempDir()
	t.Setenv("PINCER_HOME", home)
	t.Setenv("HOME", t.TempDir())
	_ = os.WriteFile(filepath.Join(home, "config.toml"), []byte("[checkpoints]\nmax_file_mb = 3\nsession_budget_mb = 7\n"), 0o600)
	_ = os.MkdirAll(filepath.Join(ws, ".pincer"), 0o755)
	_ = os.WriteFile(filepath.Join(ws, ".pincer", "config.toml"), []byte("[checkpoints]\nenabled = false\n"), 0o600)
	t.Chdir(ws)
	s, err := Prepare(Options{FailClosed: true, ModelOptional: true})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Checkpoints.Enabled() || s.Checkpoints.MaxFileMB != 3 || s.Checkpoints.SessionBudgetMB != 7 {
		t.Fatalf("[checkpoints] %+v", s.Checkpoints)
	}
	warned := false
	for _, w := range s.Warnings {
		warned = warned || strings.Contains(w, "[checkpoints] in a project file is not applied")
	}
	if !warned {
		t.Errorf("no warning for the project's [checkpoints]: %v", s.Warnings)
	}
	if o := checkpointOptions(s.Checkpoints); o.MaxFileBytes != 3<<20 || o.SessionBudget != 7<<20 || o.TotalBudget != 0 {
		t.Errorf("options %+v", o)
	}
	store := memory.New()
	if r := checkpointRecorder(store, s.Workspace, s.Checkpoints, nil); r == nil {
		t.Fatal("no Recorder with checkpoints enabled")
	}
	off := false
	if r := checkpointRecorder(store, s.Workspace, config.CheckpointsSettings{EnabledSet: &off}, nil); r != nil {
		t.Fatal("a Recorder with [checkpoints] enabled = false")
	}
	u, err := CheckpointUsage(t.Context())
	if err != nil || u.Blobs != 0 || u.Checkpoints != 0 {
		t.Fatalf("usage of a fresh home: %+v %v", u, err)
	}
	var _ checkpoint.Usage = u
}
