package memory

import (
	"errors"
	"os"

	"pincer/core/smallfile"
	"pincer/tools"
)

// Diff is what accepting c would change, as a unified diff (tools.UnifiedDiff):
// its file as it is now against c's Content (a removal: against nothing),
// then, for a memory, its index line. A file that cannot be read (a
// symlink, too big) is diffed as empty, with a note; accepting it would be
// refused by the writer.
func Diff(c Candidate) string {
	old, note := currentText(c.Target)
	oldLabel, newLabel := "a"+c.Target, "b"+c.Target
	if old == "" {
		oldLabel = "/dev/null"
	}
	if c.Op == OpRemove {
		newLabel = "/dev/null"
	}
	out := note + tools.UnifiedDiff(oldLabel, newLabel, old, c.Content)
	if c.Kind == KindMemory {
		stem := FileStem(c.Name)
		link := stem + ".md"
		if c.Scope == ScopeUser {
			link = "memory/" + link
		}
		index := ProjectIndexName
		if c.Scope == ScopeUser {
			index = UserIndexName
		}
		if c.Op == OpRemove {
			out += index + ": - the line linking " + link + "\n"
		} else {
			out += index + ": " + indexLine(c.Name, link, c.Description) + "\n"
		}
	}
	return out
}

// currentText reads path for a diff ("" when absent; a note when it cannot be read).
func currentText(path string) (string, string) {
	data, err := smallfile.Read(path, 4*MaxContentBytes)
	switch {
	case err == nil:
		return string(data), ""
	case errors.Is(err, os.ErrNotExist):
		return "", ""
	}
	return "", "(" + err.Error() + ")\n"
}
