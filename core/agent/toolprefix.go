package agent

import "strings"

// toolNamePrefixes are the namespaces some models put before a tool's name in their
// calls ("functions.Read", "assistant.Bash", "functions:Grep"): OpenAI's models echo
// the "functions" namespace of their own prompt format, and open-weight models
// trained on it do the same through any API.
var toolNamePrefixes = []string{"functions.", "functions:", "assistant.", "assistant:"}

// canonicalToolName returns the name of the tool a call means. A name that names a
// tool is kept as is (a tool really called "functions.x" wins); otherwise one of
// toolNamePrefixes is removed when what remains names a tool. Anything else is
// returned unchanged, so an unknown name still fails as an unknown tool: the
// mapping only ever reaches the tool whose bare name the model wrote, never a
// different one.
func (t *turn) canonicalToolName(name string) string {
	if _, ok := t.lookupTool(name); ok {
		return name
	}
	for _, prefix := range toolNamePrefixes {
		if bare, ok := strings.CutPrefix(name, prefix); ok && bare != "" {
			if _, ok := t.lookupTool(bare); ok {
				return bare
			}
		}
	}
	return name
}
