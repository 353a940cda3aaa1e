package badger

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	dgbadger "github.com/dgraph-io/badger/v4"

	"pincer/persist"
	"pincer/persist/internal/record"
)

// PutCandidate stores a new pending candidate under k/<id>
// (persist.CandidateStore): ErrDuplicate when the id is taken.
func (b *Store) PutCandidate(ctx context.Context, c persist.Candidate) (persist.Candidate, error) {
	const op = "put candidate"
	c, err := record.NewCandidate(c, b.now())
	if err != nil {
		return c, err
	}
	key := record.CandidateKey(c.ID)
	err = b.update(ctx, op, func(txn *dgbadger.Txn) error {
		if found, err := b.exists(txn, op, key); err != nil {
			return err
		} else if found {
			return fmt.Errorf("persist: candidate %s: %w", c.ID, persist.ErrDuplicate)
		}
		return b.putCandidate(txn, op, c)
	})
	return c, err
}

// GetCandidate returns candidate id (ErrNotFound when none; ErrCorrupt when
// its record does not decode).
func (b *Store) GetCandidate(ctx context.Context, id string) (persist.Candidate, error) {
	const op = "get candidate"
	var c persist.Candidate
	if err := record.CheckCandidateID(id); err != nil {
		return c, err
	}
	err := b.view(ctx, op, func(txn *dgbadger.Txn) (err error) {
		c, err = b.getCandidate(txn, op, id)
		return err
	})
	return c, err
}

// ListCandidates returns the candidates f selects, oldest first; a record
// that does not decode is skipped and reported (a *persist.CorruptError).
func (b *Store) ListCandidates(ctx context.Context, f persist.CandidateFilter) ([]persist.Candidate, error) {
	const op = "list candidates"
	out := []persist.Candidate{}
	bad := 0
	err := b.view(ctx, op, func(txn *dgbadger.Txn) error {
		p := record.CandidatePrefix
		it := txn.NewIterator(dgbadger.IteratorOptions{Prefix: p, PrefetchValues: true})
		defer it.Close()
		for it.Seek(p); it.ValidForPrefix(p); it.Next() {
			val, err := it.Item().ValueCopy(nil)
			if err != nil {
				return b.dbErr(op, err)
			}
			var c persist.Candidate
			if json.Unmarshal(val, &c) != nil {
				bad++
				continue
			}
			if record.MatchCandidate(c, f) {
				out = append(out, c)
			}
		}
		return ctx.Err()
	})
	record.SortCandidates(out)
	if err == nil {
		err = record.CorruptErr("candidate", "", bad)
	}
	return out, err
}

// DecideCandidate records d on pending candidate id, read and written in one
// transaction (a concurrent decision conflicts, is retried, and then finds
// the candidate decided: ErrDecided).
func (b *Store) DecideCandidate(ctx context.Context, id string, d persist.CandidateDecision) (persist.Candidate, error) {
	return b.changeCandidate(ctx, "decide candidate", id, func(c persist.Candidate) (persist.Candidate, error) {
		return record.Decide(c, d, b.now())
	})
}

// MarkCandidateApplied records that accepted candidate id's file was written.
func (b *Store) MarkCandidateApplied(ctx context.Context, id string, at time.Time) (persist.Candidate, error) {
	return b.changeCandidate(ctx, "mark candidate applied", id, func(c persist.Candidate) (persist.Candidate, error) {
		return record.MarkApplied(c, at, b.now())
	})
}

// changeCandidate reads candidate id, changes it with fn and writes it back
// in one transaction.
func (b *Store) changeCandidate(ctx context.Context, op, id string, fn func(persist.Candidate) (persist.Candidate, error)) (persist.Candidate, error) {
	var out persist.Candidate
	if err := record.CheckCandidateID(id); err != nil {
		return out, err
	}
	err := b.update(ctx, op, func(txn *dgbadger.Txn) error {
		c, err := b.getCandidate(txn, op, id)
		if err != nil {
			return err
		}
		if out, err = fn(c); err != nil {
			return err
		}
		return b.putCandidate(txn, op, out)
	})
	return out, err
}

func (b *Store) getCandidate(txn *dgbadger.Txn, op, id string) (persist.Candidate, error) {
	var c persist.Candidate
	val, found, err := b.get(txn, op, record.CandidateKey(id))
	switch {
	case err != nil:
		return c, err
	case !found:
		return c, fmt.Errorf("persist: candidate %s: %w", id, persist.ErrNotFound)
	}
	if err := json.Unmarshal(val, &c); err != nil {
		return c, fmt.Errorf("persist: candidate %s: %w", id, persist.ErrCorrupt)
	}
	return c, nil
}

func (b *Store) putCandidate(txn *dgbadger.Txn, op string, c persist.Candidate) error {
	val, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return b.set(txn, op, dgbadger.NewEntry(record.CandidateKey(c.ID), val))
}
