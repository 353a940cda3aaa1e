package agent

import (
	"pincer/core/permission"
	"pincer/sandbox"
	"pincer/tools"
)

// confineBy is the By of confinable's ask.
const confineBy = "unconfinable"

// confinable returns d, or an ask in its place when d allows a command only
// by a repository's rule (permission.Decision.ProjectOnly) and its reads
// cannot be confined to the workspace here (no sandbox, or no Landlock:
// sandbox.Executor.CanConfineReads): such a command is put to the person
// rather than run unconfined (fail closed). The person's approval then runs
// it as they allowed it, unconfined.
func confinable(env *tools.Env, d permission.Decision) permission.Decision {
	if d.Behavior != permission.Allow || !d.ProjectOnly {
		return d
	}
	why := "the sandbox is off"
	if env != nil && env.Sandbox != nil {
		ex := sandbox.Executor{Policy: *env.Sandbox, Workspace: env.Workspace}
		err := ex.CanConfineReads()
		if err == nil {
			return d
		}
		why = err.Error()
	}
	return permission.Decision{Behavior: permission.Ask, By: confineBy,
		Reason: "only a repository's rule (" + d.Rule + ") allows the command, so its reads must be confined to the workspace, and they cannot be here (" + why + "): it needs approval"}
}
