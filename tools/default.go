package tools

// Default returns a registry of the built-in tools in the order the model is offered
// them: Bash, BashOutput, KillShell, Glob, Grep, Read, Edit, MultiEdit, Write, NotebookEdit, TodoWrite, ToolSearch, each wrapped by
// Typed (the agent offers ToolSearch only while some tool is deferred). Grep
// uses ripgrep when it is installed; TodoWrite keeps its lists in memory (the
// transcript keeps every call).
func Default() *Registry {
	return NewRegistry(Typed(Bash{}), Typed(BashOutput{}), Typed(KillShell{}), Typed(Glob{}), Typed(Grep{}), Typed(Read{}), Typed(Edit{}), Typed(MultiEdit{}), Typed(Write{}), Typed(NotebookEdit{}), Typed(TodoWrite{}), Typed(ToolSearch{}))
}

// Every built-in tool is a TypedTool with a one-line Summary; the file tools
// list their Paths and the tools that change files Preview their diff.
var (
	_ TypedSummarizer[BashInput]         = Bash{}
	_ TypedSummarizer[BashOutputInput]   = BashOutput{}
	_ TypedSummarizer[KillShellInput]    = KillShell{}
	_ TypedSummarizer[GlobInput]         = Glob{}
	_ TypedSummarizer[GrepInput]         = Grep{}
	_ TypedSummarizer[ReadInput]         = Read{}
	_ TypedSummarizer[EditInput]         = Edit{}
	_ TypedSummarizer[MultiEditInput]    = MultiEdit{}
	_ TypedSummarizer[ApplyPatchInput]   = ApplyPatch{}
	_ TypedSummarizer[WriteInput]        = Write{}
	_ TypedSummarizer[NotebookEditInput] = NotebookEdit{}
	_ TypedSummarizer[TodoWriteInput]    = TodoWrite{}
	_ TypedSummarizer[ToolSearchInput]   = ToolSearch{}

	_ TypedTool[BashInput]         = Bash{}
	_ TypedTool[BashOutputInput]   = BashOutput{}
	_ TypedTool[KillShellInput]    = KillShell{}
	_ TypedTool[GlobInput]         = Glob{}
	_ TypedTool[GrepInput]         = Grep{}
	_ TypedTool[ReadInput]         = Read{}
	_ TypedTool[EditInput]         = Edit{}
	_ TypedTool[MultiEditInput]    = MultiEdit{}
	_ TypedTool[ApplyPatchInput]   = ApplyPatch{}
	_ TypedTool[WriteInput]        = Write{}
	_ TypedTool[NotebookEditInput] = NotebookEdit{}
	_ TypedTool[TodoWriteInput]    = TodoWrite{}
	_ TypedTool[ToolSearchInput]   = ToolSearch{}

	_ TypedPathLister[GlobInput]         = Glob{}
	_ TypedPathLister[GrepInput]         = Grep{}
	_ TypedPathLister[ReadInput]         = Read{}
	_ TypedPathLister[EditInput]         = Edit{}
	_ TypedPathLister[MultiEditInput]    = MultiEdit{}
	_ TypedPathLister[ApplyPatchInput]   = ApplyPatch{}
	_ TypedPathLister[WriteInput]        = Write{}
	_ TypedPathLister[NotebookEditInput] = NotebookEdit{}

	_ TypedPreviewer[EditInput]         = Edit{}
	_ TypedPreviewer[MultiEditInput]    = MultiEdit{}
	_ TypedPreviewer[ApplyPatchInput]   = ApplyPatch{}
	_ TypedPreviewer[WriteInput]        = Write{}
	_ TypedPreviewer[NotebookEditInput] = NotebookEdit{}
)
