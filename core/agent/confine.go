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
	why := unconfinable(env)
	if why == "" {
		return d
	}
	return permission.Decision{Behavior: permission.Ask, By: confineBy,
		Reason: "only a repository's rule (" + d.Rule + ") allows the command, so its reads must be confined to the workspace, and they cannot be here (" + why + "): it needs approval"}
}

// unconfinable returns why a command's reads cannot be confined to the
// workspace under env's sandbox, or "" when they can.
func unconfinable(env *tools.Env) string {
	if env == nil || env.Sandbox == nil {
		return "the sandbox is off"
	}
	ex := sandbox.Executor{Policy: *env.Sandbox, Workspace: env.Workspace}
	if err := ex.CanConfineReads(); err != nil {
		return err.Error()
	}
	return ""
}
