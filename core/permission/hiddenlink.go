package permission

import (
	"fmt"
	"os"

	"pincer/sandbox"
)

// hiddenLink decides a file tool's call whose path is a hard link to a file
// the sandbox hides (issue 12, round 2): a symlink to ~/.ssh/id_rsa is
// resolved and denied by hiddenRead, but a hard link is the same inode under
// another name, with nothing to resolve. A regular file with more than one
// link is compared by device and inode with the hidden files
// (sandbox.HardLinkToHidden). The same file is denied up front for every kind
// (a read, or an edit, which reads it first), in every mode and whatever an
// allow rule says, and never asked; a file the bounded walk could not rule out
// (past sandbox.HiddenWalkCap, on the device of an unfinished hidden
// directory) asks, in every mode.
func hiddenLink(mode Mode, in Input) (Decision, bool) {
	for _, p := range in.Paths {
		r := in.resolvePath(p)
		fi, err := os.Stat(r)
		if err != nil {
			continue
		}
		switch v, where := sandbox.HardLinkToHidden(fi); v {
		case sandbox.LinkHidden:
			return Decision{Behavior: Deny, Reason: fmt.Sprintf("%s of %s was denied: it is a hard link to %s, which the sandbox hides from every command; pincer's file tools never read it, in any mode (ask the user to look at it)",
				in.Tool, p, where), By: "protected"}, true
		case sandbox.LinkUnknown:
			return askFor(mode, Decision{Behavior: Ask, Reason: fmt.Sprintf("%s of %s needs approval: it is a file with more than one hard link on the device of %s, a hidden directory too big to check, so it may be one of its files; it asks in every mode",
				in.Tool, p, where), By: "protected"}), true
		}
	}
	return Decision{}, false
}
