package memory

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"pincer/persist"
)

// Apply writes accepted candidate id's file — the one writer of memory and
// skill files. It reads the candidate from the store and refuses one whose
// stored status is not accepted (persist.ErrNotAccepted: no file is written
// without a person's recorded approval); it derives the target again from
// the candidate's kind, scope, name and project (placeOf) and refuses a
// stored Target that differs. A memory is its file, then its index line
// (USER.md or MEMORY.md); a removal the index line, then the file; a skill
// its SKILL.md. Each file is replaced atomically; the candidate is then
// marked applied and the write audited. Applying an applied candidate again
// writes the same files (what Repair relies on after a crash).
func (m *Manager) Apply(ctx context.Context, id string) (Candidate, error) {
	c, err := m.Store.GetCandidate(ctx, id)
	if err != nil {
		return c, err
	}
	if c.Status != StatusAccepted {
		return c, fmt.Errorf("candidate %s is %s: %w", id, c.Status, persist.ErrNotAccepted)
	}
	paths := PathsFor(m.ConfigDir, m.DataDir, c.Project)
	pl, err := placeOf(paths, c.Kind, c.Scope, c.Name)
	if err != nil {
		return c, err
	}
	if pl.path() != c.Target {
		return c, fmt.Errorf("candidate %s targets %s, not %s where its %s belongs: refused", id, c.Target, pl.path(), c.Kind)
	}
	if err := m.write(paths, pl, c); err != nil {
		return c, fmt.Errorf("candidate %s: %w", id, err)
	}
	first := c.AppliedAt.IsZero()
	c, err = m.Store.MarkCandidateApplied(ctx, id, m.now())
	if err == nil && first {
		verb := "write "
		if c.Op == OpRemove {
			verb = "remove "
		}
		m.audit(ctx, c, persist.AuditEntry{Decision: "allow", By: c.DecidedBy, Scope: "once",
			Summary: verb + c.Target + " (candidate " + c.ID + ")"})
	}
	return c, err
}

// write changes the files of candidate c at pl.
func (m *Manager) write(paths Paths, pl place, c Candidate) error {
	if c.Kind == KindSkill {
		return pl.locked(func(dirfd int) error {
			if c.Op == OpRemove {
				return removeAt(dirfd, pl.file())
			}
			return writeAt(dirfd, pl.file(), c.Content)
		})
	}
	ix, link, err := indexPlace(paths, c.Scope, FileStem(c.Name))
	if err != nil {
		return err
	}
	line := indexLine(c.Name, link, c.Description)
	if c.Op == OpRemove {
		if err := m.writeIndex(ix, link, ""); err != nil {
			return err
		}
		return pl.locked(func(dirfd int) error { return removeAt(dirfd, pl.file()) })
	}
	if err := pl.locked(func(dirfd int) error { return writeAt(dirfd, pl.file(), c.Content) }); err != nil {
		return err
	}
	return m.writeIndex(ix, link, line)
}

// writeIndex sets the line of link in index ix ("" removes it).
func (m *Manager) writeIndex(ix place, link, line string) error {
	return ix.locked(func(dirfd int) error {
		old, err := readAt(dirfd, ix.file())
		if err != nil {
			return err
		}
		next := withLine(old, link, line)
		if next == old {
			return nil
		}
		return writeAt(dirfd, ix.file(), next)
	})
}

// Repair writes every accepted candidate not yet applied (a crash between
// the decision and the write, a write that failed) and removes the temp
// files a crashed write left in the memory dirs. It returns the candidates
// it applied and the errors of those it could not.
func (m *Manager) Repair(ctx context.Context) ([]Candidate, error) {
	for _, dir := range []string{m.Paths().ProjectDir, m.Paths().UserDir, filepath.Dir(m.Paths().UserIndex)} {
		if dir != "" && dir != "." {
			cleanTemps(dir)
		}
	}
	l, err := m.Store.ListCandidates(ctx, Filter{Status: StatusAccepted})
	if err != nil && !errors.Is(err, persist.ErrCorrupt) {
		return nil, err
	}
	var done []Candidate
	var errs []error
	for _, c := range l {
		if !c.AppliedAt.IsZero() {
			continue
		}
		if c, err := m.Apply(ctx, c.ID); err != nil {
			errs = append(errs, err)
		} else {
			done = append(done, c)
		}
	}
	return done, errors.Join(errs...)
}
