package agent

import (
	"fmt"

	"pincer/tools"
)

// preview returns the would-be diff of a prepared call whose tool changes files
// (tools.Previewer), or the tool's reason why the call would fail, both
// redacted as a tool result is, and whether the tool previewed a change (an
// approval then binds Run to exactly that change: tools.Env.ApprovedPreview);
// all are empty for a tool without Preview. It runs in the call's env (the same workspace guard and file
// state Run gets) and writes nothing; a panic in the tool becomes the failure text.
func (t *turn) preview(env *tools.Env, p *prepared) (diff, failure string, previewed bool) {
	pv, ok := p.tool.(tools.Previewer)
	if !ok || env == nil {
		return "", "", false
	}
	callEnv := *env
	callEnv.ToolCallID = p.call.ToolCallID
	diff, err := previewSafely(pv, p.call.ToolName, &callEnv, p)
	if err != nil {
		return "", t.a.cfg.Redactor.Redact(err.Error()), false
	}
	return t.a.cfg.Redactor.Redact(diff), "", true
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
