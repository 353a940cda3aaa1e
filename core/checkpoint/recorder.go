package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"pincer/persist"
)

// Defaults of Options.
const (
	DefaultMaxFileBytes  = 10 << 20  // files larger are noted, not stored
	DefaultSessionBudget = 512 << 20 // stored bytes one session's checkpoints may name
	DefaultTotalBudget   = 2 << 30   // stored bytes of every blob
)

// Options are a Recorder's limits; a zero field takes its default.
type Options struct {
	// MaxFileBytes is the size cap: a file larger is noted, not stored.
	MaxFileBytes int64
	// SessionBudget and TotalBudget bound the stored (compressed) bytes of
	// one session's checkpoints and of all of them; past either, the oldest
	// checkpoints are evicted (Prune).
	SessionBudget, TotalBudget int64
	// Skip reports a workspace-relative path the scan must not track and
	// why (protected paths: pincer's own configuration); nil skips nothing
	// but .git and ignored directories.
	Skip func(rel string) (why string, ok bool)
	// Secret reports whether content holds a secret value pincer knows (an
	// API key: the session's Redactor); such a file is noted, not stored, so
	// that no copy of a key lands in pincer's store (its rewind then says the
	// file was not recorded). nil stores every file.
	Secret func(content []byte) bool
}

func (o Options) withDefaults() Options {
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = DefaultMaxFileBytes
	}
	if o.SessionBudget <= 0 {
		o.SessionBudget = DefaultSessionBudget
	}
	if o.TotalBudget <= 0 {
		o.TotalBudget = DefaultTotalBudget
	}
	if o.Skip == nil {
		o.Skip = func(string) (string, bool) { return "", false }
	}
	return o
}

// tracked is one file of the baseline: its stat, its version (the blob
// stored) and at, a time (Unix ns) no later than its content was read.
type tracked struct {
	st stat
	v  persist.FileVersion
	at int64
}

// racy reports whether t's stat cannot prove the file unchanged since it was
// read (git's racily-clean rule): its mtime is not older than the read, less
// the timestamp granularity, so a write just after the read may have left
// size and mtime as they were. A racy file is re-read at the next scan; once
// re-read by a later scan its mtime is older than that scan and it is clean.
func (t tracked) racy() bool {
	return t.st.MtimeNs >= t.at-int64(racySlack(t.st.MtimeNs))
}

// racySlack is the timestamp granularity assumed of a file of mtime (Unix
// ns): whole seconds mean a coarse file system (FAT rounds to 2 s), else the
// kernel's coarse clock, which lags the wall clock by up to a tick (10 ms at
// HZ=100), with margin.
func racySlack(mtimeNs int64) time.Duration {
	if mtimeNs%int64(time.Second) == 0 {
		return racyWindow
	}
	return racyFine
}

// racyWindow and racyFine are the coarse and fine granularities of racySlack.
const (
	racyWindow = 2 * time.Second
	racyFine   = 100 * time.Millisecond
)

// Recorder records the checkpoints of one workspace root into a store. It
// is safe for concurrent use; the baseline (the content of every tracked
// file as of the last scan) is shared by the calls it records.
type Recorder struct {
	store persist.CheckpointStore
	root  string
	rt    *os.Root
	opts  Options

	mu   sync.Mutex
	base map[string]tracked // nil until the first scan
	// snaps counts the scan Pendings holding base itself (gen): the first
	// change of base while any does copies it (copy on write), so a Bash
	// call's before-state costs no copy of the tree's map.
	snaps int
	gen   uint64
	// dirs are the directories the last scan walked (replaced whole by each
	// scan, never changed in place: a Pending may hold it), so a command's
	// scan knows the directories it created.
	dirs     map[string]struct{}
	index    indexCache    // git's tracked files: never hidden by .gitignore (tracked.go)
	sinceGC  atomic.Int64  // stored bytes added since the last Prune
	lastScan time.Duration // how long the last scan took (doctor, benchmarks)
}

// New returns a Recorder of the workspace at root (an absolute directory),
// storing into store.
func New(store persist.CheckpointStore, root string, opts Options) (*Recorder, error) {
	rt, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	return &Recorder{store: store, root: filepath.Clean(root), rt: rt, opts: opts.withDefaults()}, nil
}

// Close releases the Recorder's handle on the workspace.
func (r *Recorder) Close() error { return r.rt.Close() }

// Root is the workspace root the Recorder records.
func (r *Recorder) Root() string { return r.root }

// Pending is one call's before-state, taken by Before and closed by After.
type Pending struct {
	r      *Recorder
	scan   bool
	before map[string]persist.FileVersion // listed paths' versions
	base   map[string]tracked             // scan: the baseline at Before (not to be changed)
	gen    uint64                         // scan: the Recorder's gen at Before
	dirsAt map[string]struct{}            // scan: the directories at Before
	noted  []string
	err    error
	dirs   map[string]bool // directories absent before, on listed paths' way
}

// Before takes the before-state of a call: of the files at paths (absolute,
// the call's tools.PathLister paths) when scan is false, or of the whole
// workspace (a scan, for a command) when scan is true. A failure is kept in
// the Pending (After reports it): a checkpoint that cannot be taken never
// stops the call.
func (r *Recorder) Before(ctx context.Context, paths []string, scan bool) *Pending {
	p := &Pending{r: r, scan: scan, before: map[string]persist.FileVersion{}}
	if scan {
		r.mu.Lock()
		defer r.mu.Unlock()
		noted, err := r.syncBase(ctx)
		p.noted, p.err = noted, err
		if err == nil {
			p.base, p.gen, p.dirsAt = r.base, r.gen, r.dirs
			r.snaps++
		}
		return p
	}
	for _, abs := range paths {
		rel, ok := r.rel(abs)
		if !ok {
			p.noted = append(p.noted, abs+": outside the workspace root, not recorded")
			continue
		}
		v, _, err := r.version(ctx, rel)
		if err != nil {
			p.noted = append(p.noted, rel+": "+err.Error())
			continue
		}
		p.before[rel] = v
		for _, d := range r.absentDirs(rel) {
			if p.dirs == nil {
				p.dirs = map[string]bool{}
			}
			p.dirs[d] = true
		}
	}
	return p
}

// After takes the after-state of the call and stores a checkpoint of what
// it changed, if anything (changed false: nothing changed, nothing stored).
func (p *Pending) After(ctx context.Context, sessionID, turnID, toolCallID, tool string) (persist.Checkpoint, bool, error) {
	r := p.r
	c := persist.Checkpoint{SessionID: sessionID, TurnID: turnID, ToolCallID: toolCallID, Tool: tool, Noted: p.noted, Scanned: p.scan}
	if p.err != nil {
		return c, false, p.err
	}
	if p.scan {
		r.mu.Lock()
		if p.gen == r.gen {
			r.snaps--
		}
		files, noted, err := r.scanChanges(ctx, p)
		dirsAfter := r.dirs
		r.mu.Unlock()
		if err != nil {
			return c, false, err
		}
		c.Files, c.Noted = files, noted
		p.dirs = newDirs(p.dirsAt, dirsAfter)
	} else {
		for rel, before := range p.before {
			at := time.Now().UnixNano()
			after, st, err := r.version(ctx, rel)
			if err != nil {
				c.Noted = append(c.Noted, rel+": "+err.Error())
				continue
			}
			if !sameVersion(before, after) {
				c.Files = append(c.Files, persist.CheckpointFile{Path: rel, Before: before, After: after})
			}
			r.mu.Lock()
			if r.base != nil {
				if after.Absent {
					r.delBase(rel)
				} else {
					r.setBase(rel, tracked{st: st, v: after, at: at})
				}
			}
			r.mu.Unlock()
		}
	}
	if len(c.Files) == 0 {
		return c, false, nil
	}
	c.Dirs = r.createdDirs(p.dirs)
	slices.SortFunc(c.Files, func(a, b persist.CheckpointFile) int { return strings.Compare(a.Path, b.Path) })
	stored, err := r.store.AppendCheckpoint(ctx, c)
	if err != nil {
		return c, false, err
	}
	r.afterAppend(ctx)
	return stored, true, nil
}

// setBase and delBase change the baseline, copying it first while a scan
// Pending holds it (copy on write). Called with r.mu held.
func (r *Recorder) setBase(rel string, t tracked) {
	r.own()
	r.base[rel] = t
}

func (r *Recorder) delBase(rel string) {
	if _, ok := r.base[rel]; ok {
		r.own()
		delete(r.base, rel)
	}
}

func (r *Recorder) own() {
	if r.snaps > 0 {
		r.base = maps.Clone(r.base)
		r.gen++
		r.snaps = 0
	}
}

// syncBase brings the baseline up to the workspace as it is now: every file
// whose stat changed (or is new, or racy) is read and stored; files gone are
// dropped. The first call reads every file. Called with r.mu held.
func (r *Recorder) syncBase(ctx context.Context) ([]string, error) {
	start := time.Now()
	at := start.UnixNano()
	defer func() { r.lastScan = time.Since(start) }()
	if r.base == nil {
		r.base = map[string]tracked{}
	}
	n0, seen := len(r.base), 0
	var walked []string
	dirs := map[string]struct{}{}
	noted, err := walk(r.root, r.index.tracked(r.root), r.opts.Skip, func(rel string, st stat) error {
		if len(walked)%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		walked = append(walked, rel)
		t, ok := r.base[rel]
		if ok {
			seen++
			if t.st == st && !t.racy() {
				return nil
			}
		}
		v, st2, err := r.version(ctx, rel)
		if err != nil || v.Absent {
			r.delBase(rel)
			return nil
		}
		r.setBase(rel, tracked{st: st2, v: v, at: at})
		return nil
	}, func(rel string) { dirs[rel] = struct{}{} })
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("checkpoint: scan: %w", err)
	}
	r.dirs = dirs
	if seen < n0 { // some of the baseline is gone
		here := make(map[string]struct{}, len(walked))
		for _, rel := range walked {
			here[rel] = struct{}{}
		}
		for rel := range r.base {
			if _, ok := here[rel]; !ok {
				r.delBase(rel)
			}
		}
	}
	return noted, nil
}

// scanChanges scans after a command: what changed against the Pending's
// baseline, the after-versions stored and the baseline updated. Called with
// r.mu held.
func (r *Recorder) scanChanges(ctx context.Context, p *Pending) ([]persist.CheckpointFile, []string, error) {
	at := time.Now().UnixNano()
	before := p.base // r.base itself when no other call changed it since: read each entry before changing it
	n0, seen := len(before), 0
	var walked []string
	var files []persist.CheckpointFile
	dirs := map[string]struct{}{}
	noted, err := walk(r.root, r.index.tracked(r.root), r.opts.Skip, func(rel string, st stat) error {
		walked = append(walked, rel)
		bt, had := before[rel]
		if had {
			seen++
			if bt.st == st && !bt.racy() {
				return nil
			}
		}
		after, st2, err := r.version(ctx, rel)
		if err != nil {
			return nil
		}
		bv := persist.FileVersion{Absent: true}
		if had {
			bv = bt.v
		}
		if after.Absent {
			r.delBase(rel)
		} else {
			r.setBase(rel, tracked{st: st2, v: after, at: at})
		}
		if !sameVersion(bv, after) {
			files = append(files, persist.CheckpointFile{Path: rel, Before: bv, After: after})
		}
		return nil
	}, func(rel string) { dirs[rel] = struct{}{} })
	if err != nil {
		return nil, nil, fmt.Errorf("checkpoint: scan: %w", err)
	}
	r.dirs = dirs
	if seen < n0 { // files of the before-state are gone
		here := make(map[string]struct{}, len(walked))
		for _, rel := range walked {
			here[rel] = struct{}{}
		}
		var gone []persist.CheckpointFile
		for rel, t := range before {
			if _, ok := here[rel]; !ok {
				gone = append(gone, persist.CheckpointFile{Path: rel, Before: t.v, After: persist.FileVersion{Absent: true}})
			}
		}
		for _, f := range gone {
			r.delBase(f.Path)
		}
		files = append(files, gone...)
	}
	return files, noted, nil
}

// version reads the file at rel (through the workspace's os.Root, a symlink
// not followed: its content is its target) and stores its blob; absent is a
// tombstone, a file over the size cap is noted in the version (NotStored).
func (r *Recorder) version(ctx context.Context, rel string) (persist.FileVersion, stat, error) {
	if r.throughLink(rel) {
		return persist.FileVersion{Absent: true}, stat{}, nil
	}
	fi, err := r.rt.Lstat(filepath.FromSlash(rel))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscallENOTDIR) {
		return persist.FileVersion{Absent: true}, stat{}, nil
	}
	if err != nil {
		return persist.FileVersion{}, stat{}, err
	}
	st := statOf(fi)
	v := persist.FileVersion{Size: fi.Size(), Mode: uint32(fi.Mode())}
	var content []byte
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := r.rt.Readlink(filepath.FromSlash(rel))
		if err != nil {
			return v, st, err
		}
		content = []byte(target)
	case !fi.Mode().IsRegular():
		return v, st, fmt.Errorf("not a regular file (%s), not recorded", fi.Mode().Type())
	case fi.Size() > r.opts.MaxFileBytes:
		v.NotStored = fmt.Sprintf("over the %d-byte size cap", r.opts.MaxFileBytes)
		return v, st, nil
	default:
		content, err = r.rt.ReadFile(filepath.FromSlash(rel))
		if err != nil {
			return v, st, err
		}
	}
	v.Size = int64(len(content))
	if r.opts.Secret != nil && r.opts.Secret(content) {
		v.NotStored = "holds a secret value pincer knows (an API key): not stored"
		return v, st, nil
	}
	h, n, err := putBlob(ctx, r.store, content)
	if err != nil {
		v.NotStored = "not stored: " + err.Error()
		return v, st, nil
	}
	v.Hash, v.Stored = h, n
	r.sinceGC.Add(n)
	return v, st, nil
}

// throughLink reports whether a directory on the way to rel is not a
// directory (a symlink, a file, absent): then no file is at rel in the
// workspace (a path through a symlink is another file, maybe outside).
func (r *Recorder) throughLink(rel string) bool {
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		fi, err := r.rt.Lstat(filepath.FromSlash(strings.Join(parts[:i], "/")))
		if err != nil || !fi.IsDir() {
			return true
		}
	}
	return false
}

// rel is abs relative to the workspace root (slash-separated); false when
// it is not inside it.
func (r *Recorder) rel(abs string) (string, bool) {
	rel, err := filepath.Rel(r.root, filepath.Clean(abs))
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// sameVersion reports whether two versions are the same file: both absent,
// or the same content and mode (an unstored version is never proved the same
// unless its size and mode are and neither holds content).
func sameVersion(a, b persist.FileVersion) bool {
	if a.Absent || b.Absent {
		return a.Absent == b.Absent
	}
	if a.Hash == "" || b.Hash == "" {
		return a.Hash == b.Hash && a.Size == b.Size && a.Mode == b.Mode
	}
	return a.Hash == b.Hash && a.Mode == b.Mode
}
