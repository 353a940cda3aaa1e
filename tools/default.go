package tools

// Default returns a registry of the six built-in tools in the order the model is
// offered them: Bash, Glob, Grep, Read, Edit, Write. Grep uses ripgrep when it is
// installed.
func Default() *Registry {
	return NewRegistry(Bash{}, Glob{}, Grep{}, Read{}, Edit{}, Write{})
}

// Every built-in tool satisfies Tool.
var (
	_ Tool = Bash{}
	_ Tool = Glob{}
	_ Tool = Grep{}
	_ Tool = Read{}
	_ Tool = Edit{}
	_ Tool = Write{}
)
