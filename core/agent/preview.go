package agent

import (
	"fmt"

	"pincer/tools"
)

// preview returns the would-be diff of a prepared call whose tool changes files
// (tools.Previewer), or the tool's reason why the call would fail, both
// redacted as a tool result is, and the diff as the tool made it (raw, which an
// approval hands back to Run: tools.Env.Approved); all are empty for a tool
// without Preview. It runs in the call's env (the same workspace guard and file
// state Run gets) and writes nothing; a panic in the tool becomes the failure text.
func (t *turn) preview(env *tools.Env, p *prepared) (diff, failure, raw string) {
	pv, ok := p.tool.(tools.Previewer)
	if !ok || env == nil {
		return "", "", ""
	}
	callEnv := *env
	callEnv.ToolCallID = p.call.ToolCallID
	diff, err := previewSafely(pv, p.call.ToolName, &callEnv, p)
	if err != nil {
		return "", t.a.cfg.Redactor.Redact(err.Error()), ""
	}
	return t.a.cfg.Redactor.Redact(diff), "", diff
}

// previewSafely calls pv.Preview, turning a panic into an error as runSafely
// does for Run.
func previewSafely(pv tools.Previewer, name string, env *tools.Env, p *prepared) (diff string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error in %s: %v", name, r)
		}
	}()
	return pv.Preview(env, p.input)
}
