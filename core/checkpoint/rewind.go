package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"pincer/persist"
)

// Restore is one file of a rewind: the version it goes back to (To), the
// version the session's checkpoints last left it at (Expected) and, when the
// file is not that version now, how it differs (Conflict: changed outside
// pincer since the checkpoint).
type Restore struct {
	Path     string
	To       persist.FileVersion
	Expected persist.FileVersion
	// Now is the version in the workspace when the plan was made (hashed,
	// nothing stored; zero when it could not be read: Conflict says why).
	Now      persist.FileVersion
	Conflict string
	// Scanned says the change was found by a command's scan (not listed by a
	// file tool the permission engine decided on by path).
	Scanned bool
	// Dirs are the directories on Path's way the rewound calls created
	// (persist.Checkpoint.Dirs); a restore to absent removes them when they
	// are empty after it.
	Dirs []string
}

// ErrEvicted is the error of a rewind to a turn whose checkpoints were
// evicted (the budgets): what it changed cannot all be known.
var ErrEvicted = errors.New("checkpoint: the checkpoints of that turn were evicted (checkpoint budgets)")

// Plan is the rewind of the workspace to before turn (1-based) of a
// session: for every file the session's checkpoints of turn and the turns
// after it changed, its version before the first of them, each file checked
// against the workspace as it is now (Conflict; a path under a symlink
// that is not itself an entry of the plan is one: markLinks). cps are all
// the session's checkpoints, turns its turns (Turns).
func (r *Recorder) Plan(ctx context.Context, cps []persist.Checkpoint, turns []string, turn int) ([]Restore, error) {
	if turn < 1 || turn > len(turns) {
		return nil, fmt.Errorf("checkpoint: no turn %d (the session has %d)", turn, len(turns))
	}
	later := turns[turn-1:]
	if len(cps) > 0 && cps[0].Seq > 1 {
		if idx := slices.Index(turns, cps[0].TurnID); idx < 0 || idx >= turn-1 {
			return nil, ErrEvicted
		}
	}
	span := OfTurns(cps, later...)
	last := map[string]persist.FileVersion{}
	for _, c := range cps {
		for _, f := range c.Files {
			last[f.Path] = f.After
		}
	}
	created := map[string]bool{}
	for _, c := range span {
		for _, d := range c.Dirs {
			created[d] = true
		}
	}
	first := map[string]bool{}
	var out []Restore
	for _, c := range span {
		for _, f := range c.Files {
			if first[f.Path] {
				continue
			}
			first[f.Path] = true
			rs := Restore{Path: f.Path, To: f.Before, Expected: last[f.Path], Scanned: c.Scanned}
			if f.Before.Absent {
				rs.Dirs = dirsOf(created, f.Path)
			}
			now, err := r.peek(f.Path)
			rs.Now = now
			switch {
			case err != nil:
				rs.Conflict = err.Error()
			case !sameVersion(now, rs.Expected):
				rs.Conflict = describe(rs.Expected, now)
			}
			out = append(out, rs)
		}
	}
	slices.SortFunc(out, func(a, b Restore) int { return strings.Compare(a.Path, b.Path) })
	r.markLinks(out)
	return out, nil
}

// Conflicts are the paths of plan changed outside pincer, with how.
func Conflicts(plan []Restore) []string {
	var out []string
	for _, rs := range plan {
		if rs.Conflict != "" {
			out = append(out, rs.Path+": "+rs.Conflict)
		}
	}
	return out
}

// Apply restores plan without following any symlink on a path, even one
// inside the workspace (nofollow_unix.go: every directory opened from the
// root's descriptor with O_NOFOLLOW, the operation on the last name
// relative to it): tombstones first (deepest path first), then the
// directories the rewound calls created (Restore.Dirs) that are empty now,
// then the contents byte for byte with their modes, each replacing what is
// at its path by a rename, never written through. A path under a symlink is
// refused and reported (LinkOnPathError) unless that symlink is itself an
// entry of the plan (then it is restored as one, never traversed); the
// other paths are still restored, the refusals joined in the error. A plan
// with conflicts is refused, the conflicts listed, unless force. A path the
// Recorder's Skip protects is refused when a command's scan found it.
func (r *Recorder) Apply(ctx context.Context, plan []Restore, force bool) error {
	if c := Conflicts(plan); len(c) > 0 && !force {
		return fmt.Errorf("checkpoint: files changed outside pincer since the checkpoint (rewind with --force to overwrite them):\n  %s",
			strings.Join(c, "\n  "))
	}
	for _, rs := range plan {
		if why, ok := r.opts.Skip(rs.Path); ok && rs.Scanned {
			return fmt.Errorf("checkpoint: %s: %s; not restored", rs.Path, why)
		}
		if rs.To.NotStored != "" {
			return fmt.Errorf("checkpoint: %s: its content before was not stored (%s); nothing restored", rs.Path, rs.To.NotStored)
		}
	}
	errs := r.removeAll(plan)
	var dirs []string
	for _, rs := range plan {
		if rs.To.Absent {
			dirs = append(dirs, rs.Dirs...)
		}
	}
	if err := r.removeEmptyDirs(dirs); err != nil {
		errs = append(errs, fmt.Errorf("checkpoint: remove a directory the rewound calls created: %w", err))
	}
	for _, rs := range plan {
		if rs.To.Absent {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		data, err := Blob(ctx, r.store, rs.To.Hash)
		if err == nil {
			err = r.writeEntry(rs.Path, data, fs.FileMode(rs.To.Mode))
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("checkpoint: restore %s: %w", rs.Path, err))
		}
	}
	return errors.Join(errs...)
}

// removeAll removes plan's tombstones, deepest path first, and returns the
// refusals: a path under a symlink that is not itself an entry of plan.
func (r *Recorder) removeAll(plan []Restore) []error {
	entry := make(map[string]bool, len(plan))
	for _, rs := range plan {
		entry[rs.Path] = true
	}
	removes := slices.Clone(plan)
	slices.SortFunc(removes, func(a, b Restore) int { return strings.Compare(b.Path, a.Path) })
	var errs []error
	for _, rs := range removes {
		if !rs.To.Absent {
			continue
		}
		err := r.removeEntry(rs.Path)
		var link *LinkOnPathError
		if errors.As(err, &link) && entry[link.Dir] {
			continue // absent without following; the link is restored as its own entry
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("checkpoint: remove %s: %w", rs.Path, err))
		}
	}
	return errs
}

// peek is the version of rel now, hashed, nothing stored.
func (r *Recorder) peek(rel string) (persist.FileVersion, error) {
	name := filepath.FromSlash(rel)
	if r.throughLink(rel) {
		return persist.FileVersion{Absent: true}, nil
	}
	fi, err := r.rt.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscallENOTDIR) {
		return persist.FileVersion{Absent: true}, nil
	}
	if err != nil {
		return persist.FileVersion{}, err
	}
	v := persist.FileVersion{Size: fi.Size(), Mode: uint32(fi.Mode())}
	var data []byte
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		t, err := r.rt.Readlink(name)
		if err != nil {
			return v, err
		}
		data = []byte(t)
	case !fi.Mode().IsRegular():
		return v, fmt.Errorf("now a %s", fi.Mode().Type())
	case fi.Size() > r.opts.MaxFileBytes:
		v.NotStored = "over the size cap"
		return v, nil
	default:
		if data, err = r.rt.ReadFile(name); err != nil {
			return v, err
		}
	}
	v.Hash, v.Size = Hash(data), int64(len(data))
	return v, nil
}

// describe says how now differs from the version the session left.
func describe(expected, now persist.FileVersion) string {
	switch {
	case now.Absent:
		return "deleted since"
	case expected.Absent:
		return "created since"
	case expected.Hash != now.Hash:
		return "modified since"
	}
	return fmt.Sprintf("mode changed since (%v -> %v)", fs.FileMode(expected.Mode), fs.FileMode(now.Mode))
}
