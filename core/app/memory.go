package app

import (
	"context"
	"fmt"
	"os"
	"strings"

	"pincer/core/agent"
	"pincer/core/config"
	"pincer/core/memory"
	"pincer/core/prompt"
	"pincer/tools"
)

// SegMemory names the memory segment of the system prompt.
const SegMemory = "memory"

// memoryFrom reads the user's [memory] table (core/config; a project's is a
// warning, never applied) into the report.
func memoryFrom(src *config.Sources, report *configReport) config.MemorySettings {
	set, errs := src.Memory()
	report.add(errs)
	return set
}

// memoryPaths are the memory locations of the setup's workspace (memory.Paths
// of pincer's config and data dirs); ok is false without both dirs.
func (s *Setup) memoryPaths() (memory.Paths, bool) {
	paths := config.PathsFrom(os.Getenv)
	if paths.Config == "" || paths.Data == "" {
		return memory.Paths{}, false
	}
	return memory.PathsFor(paths.Config, paths.Data, s.Workspace.Root()), true
}

// memorySegments is the memory snapshot (memory.TakeSnapshot: USER.md, the
// project's MEMORY.md and the files they index, capped) as a static
// system-prompt segment: read when a new session's prompt is built, then
// frozen in its first message (DESIGN invariant 4). None when [memory] is
// off or there is nothing to remember.
func (s *Setup) memorySegments() []prompt.Segment {
	if !s.MemorySet.Enabled() {
		return nil
	}
	paths, ok := s.memoryPaths()
	if !ok {
		return nil
	}
	snap := memory.TakeSnapshot(paths)
	if snap.Text == "" {
		return nil
	}
	// A memory's text is the model's proposal: it must not hold the line
	// that cuts the prompt into its cached and recomputed parts.
	text := strings.ReplaceAll(snap.Text, prompt.DynamicMarker, "<!-- pincer: dynamic (quoted) -->")
	return []prompt.Segment{{Name: SegMemory, Static: true, Text: text}}
}

// promptSegments are the static segments a new session's system prompt
// adds to the built-in ones: the skill index, then the memory snapshot.
func (s *Setup) promptSegments() []prompt.Segment {
	return append(s.skillSegments(), s.memorySegments()...)
}

// observers are the turn observers of the setup's agents: the learned-skill
// observer and the memory observer, each reading the Run (run returns it,
// set once Start has built it) when a turn ends.
func (s *Setup) observers(run func() *Run) []agent.TurnObserver {
	return []agent.TurnObserver{s.skillObserver(run), &memoryObserver{set: s.MemorySet, run: run}}
}

// addRemember offers the model the Remember tool once the Run has a memory
// Manager, when [memory] is on and the configuration was read whole (a
// fail-closed setup adds no tool after its denials were made).
func (r *Run) addRemember() {
	if r.Memory == nil || !r.MemorySet.Enabled() || len(r.ConfigErrors) > 0 {
		return
	}
	r.Tools.Add(tools.Typed(tools.Remember{Propose: r.proposeRemembered}))
}

// proposeRemembered is the Remember tool's proposer: the model's memory,
// within the session's limit of model-made candidates ([memory]
// max_per_session), as a pending candidate of its session and turn.
func (r *Run) proposeRemembered(ctx context.Context, sessionID, turnID string, in tools.RememberInput) (string, string, error) {
	if err := r.underMemoryLimit(ctx, sessionID); err != nil {
		return "", "", err
	}
	op := memory.OpAdd
	if in.Op == "remove" {
		op = memory.OpRemove
	}
	c, err := r.Memory.Propose(ctx, memory.Proposal{Kind: memory.KindMemory, Op: op, Type: in.Type, Name: in.Name,
		Description: in.Description, Body: in.Content, Scope: in.Scope, SessionID: sessionID,
		Turn: r.turnNumber(ctx, sessionID, turnID), TurnID: turnID, Origin: memory.OriginRememberTool})
	return c.ID, c.Target, err
}

// underMemoryLimit refuses a model-made proposal (the Remember tool, the
// observer) once the session has max_per_session of them; a person's own
// requests are not counted.
func (r *Run) underMemoryLimit(ctx context.Context, sessionID string) error {
	cs, err := r.Memory.Store.ListCandidates(ctx, memory.Filter{Kind: memory.KindMemory, SessionID: sessionID})
	if err != nil {
		return err
	}
	n := 0
	for _, c := range cs {
		if c.Origin == memory.OriginRememberTool || c.Origin == memory.OriginObserver {
			n++
		}
	}
	if limit := r.MemorySet.PerSession(); n >= limit {
		return fmt.Errorf("this session already proposed %d memories, its limit ([memory] max_per_session)", limit)
	}
	return nil
}

// turnNumber is turn turnID's place in the session's transcript, from 1
// (as agent.CompletedTurn.Number counts); 0 when it is not found.
func (r *Run) turnNumber(ctx context.Context, sessionID, turnID string) int {
	if turnID == "" {
		return 0
	}
	msgs, _ := r.Store.ListMessages(ctx, sessionID)
	n := 0
	seen := map[string]bool{}
	for _, m := range msgs {
		if m.TurnID != "" && !seen[m.TurnID] {
			seen[m.TurnID] = true
			n++
			if m.TurnID == turnID {
				return n
			}
		}
	}
	return 0
}
