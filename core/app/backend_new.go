package app

// NewBackend is the Backend of a started run, as every workbench (the
// terminal's, the web one's) is given it: the run's agent, store and MCP
// servers, approvals through queue, and its Setup's commands, plugins, agent
// definitions, worktrees and MCP configuration problems. ModelEnv and Memory
// differ by caller and are left for it to set (nil: /model refused, no
// memory).
func NewBackend(run *Run, queue *ApprovalQueue) *Backend {
	setup := run.Setup
	return &Backend{Agent: run.Agent, Store: run.Store, Approvals: queue, MCP: run.MCP,
		ListModels: ListModels, SessionModel: SessionModelResolver(setup.Options),
		Invoke: setup.Invocation, ListCommands: setup.Commands, RescanCommands: setup.RescanSkills,
		PluginList: PluginSummaries(run.Plugins), AgentList: AgentInfos(run.Agents),
		Repo: run.Workspace.Root(), OpenWorktree: run.TabWorktree, CommitWorktree: run.WorktreeCommit(),
		MCPWarnings: setup.MCPWarnings, mcpFileAtStart: setup.mcpFileAtStart, Sandbox: setup.Sandbox}
}
