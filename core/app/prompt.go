package app

import (
	"os"
	"time"

	"pincer/core/config"
	"pincer/core/prompt"
	"pincer/sandbox"
	"pincer/tools"
)

// WorkspaceHere is the workspace rooted at the current directory.
func WorkspaceHere() (*sandbox.Workspace, error) {
	return workspaceAt("")
}

// workspaceAt is the workspace rooted at dir ("": the current directory).
func workspaceAt(dir string) (*sandbox.Workspace, error) {
	if dir == "" {
		cwd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		dir = cwd
	}
	return sandbox.NewWorkspace(dir)
}

// buildSystemPrompt assembles the system prompt a new session in ws gets.
// Its static part names the built-in tools only (builtinToolNames); extra are
// segments appended (the MCP block; the skill index, static).
func buildSystemPrompt(ws *sandbox.Workspace, registry *tools.Registry, model string, extra ...prompt.Segment) string {
	home, _ := os.UserHomeDir()
	return prompt.Build(prompt.Env{Cwd: ws.Root(), Date: time.Now(), PincerHome: os.Getenv("PINCER_HOME"),
		Home: home, ToolNames: builtinToolNames(registry), ModelName: model, Extra: extra})
}

// envOrDefault returns the environment variable k, or def when it is empty.
func envOrDefault(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// dynamicPrompt recomputes the dynamic segments of the system prompt (environment,
// git status, instructions, the MCP block) for each model call.
func dynamicPrompt(ws *sandbox.Workspace, registry *tools.Registry, model string, extra ...prompt.Segment) string {
	_, dyn, _ := prompt.Split(buildSystemPrompt(ws, registry, model, extra...))
	return dyn
}

// instructionsText re-reads the project instructions (for the view after a
// compaction).
func instructionsText(ws *sandbox.Workspace) string {
	home, _ := os.UserHomeDir()
	in, err := prompt.LoadInstructions(ws.Root(), os.Getenv("PINCER_HOME"), home)
	if err != nil {
		return ""
	}
	return in.Text
}

// toolResultsDir is the root under which long tool outputs are saved
// ($data/tool-results/<session>); "" when it cannot be made (outputs are then cut
// in the middle instead). The root itself is not part of the workspace: the agent
// adds each session's own directory when that session runs tools, so a session
// (and its sandboxed commands) never sees another session's outputs.
func toolResultsDir() string {
	root := config.PathsFrom(os.Getenv).ToolResults
	if root == "" || os.MkdirAll(root, 0o700) != nil {
		return ""
	}
	return root
}

// NewSessionPrompt is the system prompt a new session in the current directory
// would get with model (PROVIDER/MODEL; "": $PINCER_MODEL, else DefaultModel), for
// `pincer run --print-system-prompt`. It reads no configuration but the project
// instructions.
func NewSessionPrompt(model string) (string, error) {
	ws, err := WorkspaceHere()
	if err != nil {
		return "", err
	}
	return buildSystemPrompt(ws, tools.Default(), fallbackModel(model)), nil
}
