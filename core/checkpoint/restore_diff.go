package checkpoint

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"pincer/persist"
)

// RestoreDiff is the unified diff a rewind of plan would apply to the
// workspace as it is now, as Diff renders it (git style, names git-quoted):
// each file from its content now (read through the workspace's os.Root, a
// symlink not followed) to the version it goes back to (Restore.To). A file
// changed outside pincer since the checkpoint is announced by a "# P: changed
// outside pincer since the checkpoint (how)" line before its diff; a version
// whose content is not at hand (not stored, over the size cap, not a regular
// file now) is one "# P: ..." line. Nothing is stored.
func (r *Recorder) RestoreDiff(ctx context.Context, plan []Restore) (string, error) {
	var b strings.Builder
	for _, rs := range plan {
		name := quoteName(rs.Path)
		if rs.Conflict != "" {
			fmt.Fprintf(&b, "# %s: changed outside pincer since the checkpoint (%s)\n", name, rs.Conflict)
		}
		if rs.To.NotStored != "" {
			fmt.Fprintf(&b, "# %s: its content before was not stored (%s): cannot be restored\n", name, rs.To.NotStored)
			continue
		}
		to, err := content(ctx, r.store, rs.To)
		if err != nil {
			return b.String(), fmt.Errorf("checkpoint: %s: %w", rs.Path, err)
		}
		now, cur, why := r.current(rs.Path)
		if why != "" {
			fmt.Fprintf(&b, "# %s: %s; restored to its version before\n", name, why)
			continue
		}
		if sameVersion(now, rs.To) {
			continue
		}
		fileDiff(&b, rs.Path, now, rs.To, cur, to)
	}
	return b.String(), nil
}

// current is the version and content of rel in the workspace now (absent: a
// tombstone, no content), or why it cannot be shown.
func (r *Recorder) current(rel string) (persist.FileVersion, []byte, string) {
	v, err := r.peek(rel)
	switch {
	case err != nil:
		return v, nil, err.Error()
	case v.Absent:
		return v, nil, ""
	case v.NotStored != "":
		return v, nil, "now " + v.NotStored
	}
	name := filepath.FromSlash(rel)
	var data []byte
	if fs.FileMode(v.Mode)&fs.ModeSymlink != 0 {
		t, err := r.rt.Readlink(name)
		if err != nil {
			return v, nil, err.Error()
		}
		data = []byte(t)
	} else if data, err = r.rt.ReadFile(name); err != nil {
		return v, nil, err.Error()
	}
	if Hash(data) != v.Hash {
		return v, nil, "changing as it is read"
	}
	return v, data, ""
}
