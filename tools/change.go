package tools

import (
	"errors"
	"fmt"
	"io/fs"
)

// ErrChangedSinceApproval is matched (errors.Is) by the error of a file tool's Run
// whose change no longer has the diff a person approved (Env.Approved): the file
// changed between the preview and the write.
var ErrChangedSinceApproval = errors.New("the file changed after its diff was approved")

// fileChange is what a Write or Edit call would do to one file, worked out
// without writing anything: the file's current bytes (old, "" when it does not
// exist) and the bytes it would hold (new). Preview turns it into the
// would-be diff and Run applies it, so the diff shown before approval and the
// diff of the tool result come from the same computation.
type fileChange struct {
	abs     string      // absolute path, resolved inside the workspace
	shown   string      // abs relative to the workspace root, for labels and messages
	old     string      // current content; "" when the file does not exist
	new     string      // content after the change
	perm    fs.FileMode // permission bits for the written file
	existed bool        // whether the file exists now
}

// fingerprint identifies the change exactly: the file, whether it exists, and
// the SHA-256 of its bytes before and after (not the diff, which is cut for
// display and may be coarse on big inputs).
func (c fileChange) fingerprint() string {
	return fmt.Sprintf("%s\x00%t\x00%s\x00%s", c.abs, c.existed, HashContent([]byte(c.old)), HashContent([]byte(c.new)))
}

// preview records the change's fingerprint for the tool call being previewed
// (Env.ApprovedPreview checks it at write time) and returns its diff.
func (c fileChange) preview(env *Env) string {
	env.Files.recordPreview(env.ToolCallID, c.fingerprint())
	return c.diff()
}

// diff is the unified diff of the change, from /dev/null for a new file; "" when
// the content would not change.
func (c fileChange) diff() string {
	oldLabel := "a/" + c.shown
	if !c.existed {
		oldLabel = "/dev/null"
	}
	return UnifiedDiff(oldLabel, "b/"+c.shown, c.old, c.new)
}

// apply writes the new content (temp file + rename through the workspace,
// writeFile) and records it in the session's FileState.
func (c fileChange) apply(env *Env) error {
	if env.ApprovedPreview && !env.Files.previewed(env.ToolCallID, c.fingerprint()) {
		return fmt.Errorf("%s: %w: nothing was written; read the file again and propose the edit anew", c.shown, ErrChangedSinceApproval)
	}
	if err := writeFile(env, c.abs, []byte(c.new), c.perm); err != nil {
		return err
	}
	recordWritten(env, c.abs, []byte(c.new))
	return nil
}
