package event

// SubagentStartedData is the payload of subagent.started, in the parent
// session's log: tool call ToolCallID (an Agent call, or "" for a team
// member TeamCreate started) runs a subagent of type AgentType in the child
// session ChildSessionID. Background says the call returned at once (the
// result comes later as subagent.completed and a reminder to the parent).
// Worktree and Branch name the git worktree of an isolation "worktree" run
// ("" otherwise); Team names the team of a member ("" otherwise).
type SubagentStartedData struct {
	ToolCallID     string `json:"toolCallId,omitempty"`
	ChildSessionID string `json:"childSessionId"`
	AgentType      string `json:"agentType"`
	Description    string `json:"description"`
	Background     bool   `json:"background,omitempty"`
	Worktree       string `json:"worktree,omitempty"`
	Branch         string `json:"branch,omitempty"`
	Team           string `json:"team,omitempty"`
	Member         string `json:"member,omitempty"`
}

// SubagentCompletedData is the payload of subagent.completed, in the parent
// session's log: the child session's run ended with Outcome (completed,
// failed, cancelled); Result is the final text the parent receives (the tool
// result, or the reminder of a background run), Error the failure's reason.
// InputTokens and OutputTokens sum the child's model calls; DiffStat is
// `git diff --stat` of a worktree run against its base ("" otherwise).
type SubagentCompletedData struct {
	ToolCallID     string `json:"toolCallId,omitempty"`
	ChildSessionID string `json:"childSessionId"`
	AgentType      string `json:"agentType"`
	Outcome        string `json:"outcome"`
	Result         string `json:"result,omitempty"`
	Error          string `json:"error,omitempty"`
	Background     bool   `json:"background,omitempty"`
	ModelCalls     int    `json:"modelCalls"`
	InputTokens    int64  `json:"inputTokens"`
	OutputTokens   int64  `json:"outputTokens"`
	DurationMs     int64  `json:"durationMs"`
	Branch         string `json:"branch,omitempty"`
	DiffStat       string `json:"diffStat,omitempty"`
}

// ShellStartedData is the payload of shell.started: Bash call ToolCallID
// started the background shell ShellID running Command (as the model wrote
// it).
type ShellStartedData struct {
	ShellID    string `json:"shellId"`
	ToolCallID string `json:"toolCallId,omitempty"`
	Command    string `json:"command"`
}

// ShellExitedData is the payload of shell.exited: background shell ShellID
// ended. Reason is "exited" (ExitCode is its status), "killed" (KillShell),
// "session_ended" (the session's process ended it), "tainted" (pincer ended
// it: a command only a repository's rule allows started in its workspace
// while it read unconfined; tools.ShellTainted), or "process_ended"
// (recorded by a later process: the one that ran it stopped without
// recording its end, as kill -9 does); ExitCode is -1 when
// it was killed by a signal.
type ShellExitedData struct {
	ShellID  string `json:"shellId"`
	ExitCode int    `json:"exitCode"`
	Reason   string `json:"reason"`
}

// TeamMember is one member of an agent team: its Name (what SendMessage's
// "to" names), its AgentType and its child session.
type TeamMember struct {
	Name           string `json:"name"`
	AgentType      string `json:"agentType"`
	ChildSessionID string `json:"childSessionId"`
}

// TeamCreatedData is the payload of team.created, in the lead's log.
type TeamCreatedData struct {
	Team    string       `json:"team"`
	Members []TeamMember `json:"members"`
}

// TeamDeletedData is the payload of team.deleted, in the lead's log.
type TeamDeletedData struct {
	Team string `json:"team"`
}

// TeamMessageData is the payload of team.message, appended to the sender's
// and the recipient's logs: From and To are member names ("lead" for the
// team's lead session), FromSessionID and ToSessionID their sessions.
type TeamMessageData struct {
	Team          string `json:"team"`
	From          string `json:"from"`
	FromSessionID string `json:"fromSessionId"`
	To            string `json:"to"`
	ToSessionID   string `json:"toSessionId"`
	Message       string `json:"message"`
}
