package agent

import (
	"context"

	"pincer/core/checkpoint"
	"pincer/core/event"
	"pincer/tools"
)

// checkpointBefore takes the before-state of a call that may change files
// (Config.Checkpoints): a read tool's call none; a tool that lists its paths
// (tools.PathLister: Write, Edit, and every other edit tool that does) those
// paths; any other call — Bash, the text protocol's commands, MCP tools, an
// edit tool that lists nothing — a scan of the workspace. nil when nothing is
// recorded.
func (t *turn) checkpointBefore(ctx context.Context, env *tools.Env, p *prepared) *checkpoint.Pending {
	rec := t.a.cfg.Checkpoints
	if rec == nil {
		return nil
	}
	sp := p.tool.Spec()
	if sp.Kind == tools.KindRead {
		return nil
	}
	if sp.Kind == tools.KindEdit {
		if paths := tools.Paths(p.tool, env, p.input); len(paths) > 0 {
			return rec.Before(ctx, paths, false)
		}
	}
	return rec.Before(ctx, nil, true)
}

// checkpointAfter stores the call's checkpoint and emits checkpoint.recorded
// when it changed files; a checkpoint that failed is a notice (the call's
// result stands).
func (t *turn) checkpointAfter(bg context.Context, p *prepared, ck *checkpoint.Pending) {
	if ck == nil {
		return
	}
	c, changed, err := ck.After(bg, t.sess.ID, t.id, p.call.ToolCallID, p.call.ToolName)
	if err != nil {
		_ = t.emit(bg, event.Notice, event.NoticeData{Level: "warning", Source: "checkpoint", Message: "checkpoint of " + p.call.ToolName + " not recorded: " + err.Error()})
		return
	}
	if !changed {
		return
	}
	data := checkpoint.RecordedData(c, p.call.ToolCallID)
	_ = t.emit(bg, event.CheckpointRecorded, data)
}

// Checkpoints is the Recorder of the agent's workspace (Config.Checkpoints;
// nil when checkpoints are off): a rewind restores through it, so that its
// baseline follows what the rewind wrote.
func (a *Agent) Checkpoints() *checkpoint.Recorder { return a.cfg.Checkpoints }
