package tools

// Default returns a registry of the built-in tools in the order the model is offered
// them: Bash, Glob, Grep, Read, Edit, Write, TodoWrite. Grep uses ripgrep when it is
// installed; TodoWrite keeps its lists in memory (the transcript keeps every call).
func Default() *Registry {
	return NewRegistry(Bash{}, Glob{}, Grep{}, Read{}, Edit{}, Write{}, TodoWrite{})
}

// Every built-in tool satisfies Tool.
var (
	_ Tool = Bash{}
	_ Tool = Glob{}
	_ Tool = Grep{}
	_ Tool = Read{}
	_ Tool = Edit{}
	_ Tool = Write{}
	_ Tool = TodoWrite{}
)

// The built-in tools that change files show their diff before they run.
var (
	_ Previewer = Edit{}
	_ Previewer = Write{}
)
