package checkpoint

import (
	"context"
	"slices"

	"pincer/persist"
)

// pruneEvery is how many stored bytes a Recorder adds between two Prunes.
const pruneEvery = 8 << 20

// Usage is what the checkpoints take in a store: Blobs stored blobs of Bytes
// stored (compressed) bytes in all; per session, its checkpoints and the
// stored bytes of the distinct blobs they name (a blob two sessions share
// counts in both).
type Usage struct {
	Blobs       int
	Bytes       int64
	Checkpoints int
	Sessions    map[string]SessionUsage
}

// SessionUsage is one session's share of Usage.
type SessionUsage struct {
	Checkpoints int
	Bytes       int64
}

// Measure returns the store's checkpoint usage.
func Measure(ctx context.Context, s persist.CheckpointStore) (Usage, error) {
	blobs, err := s.ListBlobs(ctx)
	if err != nil {
		return Usage{}, err
	}
	cps, err := s.ListCheckpoints(ctx, "")
	if err != nil {
		return Usage{}, err
	}
	return measure(blobs, cps), nil
}

func measure(blobs map[string]int64, cps []persist.Checkpoint) Usage {
	u := Usage{Blobs: len(blobs), Checkpoints: len(cps), Sessions: map[string]SessionUsage{}}
	for _, n := range blobs {
		u.Bytes += n
	}
	seen := map[string]map[string]bool{}
	for _, c := range cps {
		su := u.Sessions[c.SessionID]
		su.Checkpoints++
		if seen[c.SessionID] == nil {
			seen[c.SessionID] = map[string]bool{}
		}
		for _, h := range hashes(c) {
			if !seen[c.SessionID][h] {
				seen[c.SessionID][h] = true
				su.Bytes += blobs[h]
			}
		}
		u.Sessions[c.SessionID] = su
	}
	return u
}

// hashes are the blob hashes a checkpoint names.
func hashes(c persist.Checkpoint) []string {
	var out []string
	for _, f := range c.Files {
		for _, v := range []persist.FileVersion{f.Before, f.After} {
			if v.Hash != "" {
				out = append(out, v.Hash)
			}
		}
	}
	return out
}

// Prune keeps the store within the budgets: while a session's checkpoints
// name more than sessionBudget stored bytes, its oldest checkpoint is evicted;
// while all blobs take more than totalBudget, the oldest checkpoint of any
// session is; then every blob only evicted checkpoints named is deleted. A
// blob no checkpoint ever named (a Recorder's baseline: the content of a file
// no call changed yet, which a running Recorder in any process may still name
// in its next checkpoint) is kept. It returns the usage after.
func Prune(ctx context.Context, s persist.CheckpointStore, sessionBudget, totalBudget int64) (Usage, error) {
	blobs, err := s.ListBlobs(ctx)
	if err != nil {
		return Usage{}, err
	}
	cps, err := s.ListCheckpoints(ctx, "")
	if err != nil {
		return Usage{}, err
	}
	namedBefore := map[string]bool{}
	for _, c := range cps {
		for _, h := range hashes(c) {
			namedBefore[h] = true
		}
	}
	slices.SortStableFunc(cps, func(a, b persist.Checkpoint) int { return a.Time.Compare(b.Time) })
	evict := func(i int) error {
		if err := s.DeleteCheckpoint(ctx, cps[i].SessionID, cps[i].Seq); err != nil {
			return err
		}
		cps = slices.Delete(cps, i, i+1)
		return nil
	}
	for {
		u := measure(blobs, cps)
		over := -1
		for i, c := range cps { // the oldest checkpoint of a session over its budget
			if u.Sessions[c.SessionID].Bytes > sessionBudget {
				over = i
				break
			}
		}
		if over < 0 && len(cps) > 0 && referencedBytes(blobs, cps) > totalBudget {
			over = 0
		}
		if over < 0 {
			break
		}
		if err := evict(over); err != nil {
			return u, err
		}
	}
	named := map[string]bool{}
	for _, c := range cps {
		for _, h := range hashes(c) {
			named[h] = true
		}
	}
	for h := range blobs {
		if namedBefore[h] && !named[h] {
			if err := s.DeleteBlob(ctx, h); err != nil {
				return Usage{}, err
			}
			delete(blobs, h)
		}
	}
	return measure(blobs, cps), nil
}

// referencedBytes is the stored size of the distinct blobs cps name.
func referencedBytes(blobs map[string]int64, cps []persist.Checkpoint) int64 {
	seen := map[string]bool{}
	var n int64
	for _, c := range cps {
		for _, h := range hashes(c) {
			if !seen[h] {
				seen[h] = true
				n += blobs[h]
			}
		}
	}
	return n
}

// afterAppend prunes once the Recorder has stored pruneEvery bytes since
// the last Prune.
func (r *Recorder) afterAppend(ctx context.Context) {
	if r.sinceGC.Load() < pruneEvery {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sinceGC.Store(0)
	_, _ = Prune(ctx, r.store, r.opts.SessionBudget, r.opts.TotalBudget)
}
