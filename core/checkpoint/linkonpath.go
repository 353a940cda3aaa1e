package checkpoint

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// LinkOnPathError is the error of a rewind's operation on a path one of
// whose directories is a symlink now (Dir, workspace-relative): the
// operation is refused, nothing is written or removed through the link (it
// may point anywhere in the workspace: .git/hooks, .claude). The link
// itself is a workspace entry: a plan that restores it handles it as one.
type LinkOnPathError struct{ Dir string }

func (e *LinkOnPathError) Error() string {
	return e.Dir + " is a symlink now (changed since the checkpoint): not followed, nothing under it restored"
}

// linkOnPath is the first directory on the way to rel (workspace-relative,
// slash-separated) that is a symlink now, "" when none is (an advisory
// look by name for the plan; the operations themselves never follow one).
func (r *Recorder) linkOnPath(rel string) string {
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		d := strings.Join(parts[:i], "/")
		fi, err := r.rt.Lstat(filepath.FromSlash(d))
		if err != nil || !fi.IsDir() {
			if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				return d
			}
			return ""
		}
	}
	return ""
}

// markLinks makes a conflict of every path of plan under a symlink that is
// not itself an entry of plan (one is restored as an entry, never
// traversed): the workspace changed there since the checkpoint.
func (r *Recorder) markLinks(plan []Restore) {
	entry := make(map[string]bool, len(plan))
	for _, rs := range plan {
		entry[rs.Path] = true
	}
	for i, rs := range plan {
		if d := r.linkOnPath(rs.Path); d != "" && !entry[d] && rs.Conflict == "" {
			plan[i].Conflict = (&LinkOnPathError{Dir: d}).Error()
		}
	}
}
