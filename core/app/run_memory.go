package app

import (
	"os"

	"pincer/core/config"
	"pincer/core/event"
	"pincer/core/memory"
	"pincer/persist"
)

// newMemory is the Run's memory and skill candidate Manager (core/memory)
// over its store, for its workspace, with pincer's config and data dirs;
// candidate events go to log. nil when pincer has neither dir (no HOME, no
// PINCER_HOME): then nothing is proposed and the memory commands say so.
func (s *Setup) newMemory(store persist.Store, log *event.Log) *memory.Manager {
	return memoryManager(store, log, s.Workspace.Root())
}

// memoryManager is the memory Manager of workspace root over store (log:
// where candidate events go; nil: none); nil without pincer's config and
// data dirs.
func memoryManager(store persist.Store, log *event.Log, root string) *memory.Manager {
	paths := config.PathsFrom(os.Getenv)
	if paths.Config == "" || paths.Data == "" {
		return nil
	}
	return &memory.Manager{Store: store, ConfigDir: paths.Config, DataDir: paths.Data, Project: root, Log: log}
}

// skillQueue is the Run's candidate queue as the learned-skill observer
// sees it; nil until the Run has a Manager.
func (r *Run) skillQueue() skillCandidates {
	if r == nil || r.Memory == nil {
		return nil
	}
	return skillQueue{r.Memory}
}

// skillObserver is the learned-skill observer of the setup's agents:
// [skills] as read, the session's frozen catalog, the Run's queue (read when
// a turn ends: run returns the Run, set once Start has built it).
func (s *Setup) skillObserver(run func() *Run) *skillObserver {
	paths := config.PathsFrom(os.Getenv)
	return &skillObserver{set: s.SkillsLearn, catalog: s.Skills, root: s.Workspace.Root(), home: paths.Home,
		queue: func() skillCandidates { return run().skillQueue() }}
}
