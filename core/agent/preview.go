package agent

import (
	"fmt"

	"pincer/tools"
)

// previewed is what preview found for a prepared call: the would-be diff
// (ok: the tool previewed a change, and an approval then binds Run to exactly
// that change, tools.Env.ApprovedPreview), or failure, the tool's reason why
// the call would fail, with cannotSucceed when that reason is a precondition of
// the tool itself (tools.CannotSucceed) so the call fails without asking. All
// are zero for a tool without Preview.
type previewed struct {
	diff, failure     string
	ok, cannotSucceed bool
}

// preview previews a prepared call whose tool changes files
// (tools.Previewer); diff and failure are redacted as a tool result is. It
// runs in the call's env (the same workspace guard and file state Run gets)
// and writes nothing; a panic in the tool becomes the failure text (and is not
// a precondition: the call is still asked).
func (t *turn) preview(env *tools.Env, p *prepared) previewed {
	pv, ok := p.tool.(tools.Previewer)
	if !ok || env == nil {
		return previewed{}
	}
	callEnv := *env
	callEnv.ToolCallID = p.call.ToolCallID
	diff, err := previewSafely(pv, p.call.ToolName, &callEnv, p)
	if err != nil {
		return previewed{failure: t.a.cfg.Redactor.Redact(err.Error()), cannotSucceed: tools.CannotSucceed(err)}
	}
	return previewed{diff: t.a.cfg.Redactor.Redact(diff), ok: true}
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
