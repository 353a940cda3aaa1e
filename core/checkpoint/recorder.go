package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
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

// tracked is one file of the baseline: its stat at the last scan and its
// version then (the blob stored), racy when its mtime was too close to that
// scan for the stat to prove it unchanged since (git's racy-clean rule).
type tracked struct {
	st   stat
	v    persist.FileVersion
	racy bool
}

// racyWindow is how close to a scan an mtime makes its file racy.
const racyWindow = 2 * time.Second

// Recorder records the checkpoints of one workspace root into a store. It
// is safe for concurrent use; the baseline (the content of every tracked
// file as of the last scan) is shared by the calls it records.
type Recorder struct {
	store persist.CheckpointStore
	root  string
	rt    *os.Root
	opts  Options

	mu       sync.Mutex
	base     map[string]tracked // nil until the first scan
	sinceGC  atomic.Int64       // stored bytes added since the last Prune
	lastScan time.Duration      // how long the last scan took (doctor, benchmarks)
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
	before map[string]persist.FileVersion // listed paths' versions, or the baseline's
	stats  map[string]stat                // scan: the baseline's stats
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
		p.stats = make(map[string]stat, len(r.base))
		for rel, t := range r.base {
			p.before[rel], p.stats[rel] = t.v, t.st
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
		files, noted, err := r.scanChanges(ctx, p)
		r.mu.Unlock()
		if err != nil {
			return c, false, err
		}
		c.Files, c.Noted = files, noted
	} else {
		for rel, before := range p.before {
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
					delete(r.base, rel)
				} else {
					r.base[rel] = tracked{st: st, v: after, racy: true}
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

// syncBase brings the baseline up to the workspace as it is now: every file
// whose stat changed (or is new, or racy) is read and stored; files gone are
// dropped. The first call reads every file. Called with r.mu held.
func (r *Recorder) syncBase(ctx context.Context) ([]string, error) {
	start := time.Now()
	defer func() { r.lastScan = time.Since(start) }()
	w, err := walk(r.root, r.opts.Skip)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: scan: %w", err)
	}
	if r.base == nil {
		r.base = make(map[string]tracked, len(w.files))
	}
	for rel := range r.base {
		if _, ok := w.files[rel]; !ok {
			delete(r.base, rel)
		}
	}
	for rel, st := range w.files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if t, ok := r.base[rel]; ok && t.st == st && !t.racy {
			continue
		}
		v, st2, err := r.version(ctx, rel)
		if err != nil || v.Absent {
			delete(r.base, rel)
			continue
		}
		r.base[rel] = tracked{st: st2, v: v, racy: start.Sub(time.Unix(0, st2.MtimeNs)) < racyWindow}
	}
	return w.noted, nil
}

// scanChanges scans after a command: what changed against the Pending's
// baseline, the after-versions stored and the baseline updated. Called with
// r.mu held.
func (r *Recorder) scanChanges(ctx context.Context, p *Pending) ([]persist.CheckpointFile, []string, error) {
	start := time.Now()
	w, err := walk(r.root, r.opts.Skip)
	if err != nil {
		return nil, nil, fmt.Errorf("checkpoint: scan: %w", err)
	}
	var files []persist.CheckpointFile
	for rel, st := range w.files {
		bst, had := p.stats[rel]
		if had && bst == st && !r.base[rel].racy {
			continue
		}
		after, st2, err := r.version(ctx, rel)
		if err != nil {
			continue
		}
		before := persist.FileVersion{Absent: true}
		if had {
			before = p.before[rel]
		}
		if after.Absent {
			delete(r.base, rel)
		} else {
			r.base[rel] = tracked{st: st2, v: after, racy: start.Sub(time.Unix(0, st2.MtimeNs)) < racyWindow}
		}
		if !sameVersion(before, after) {
			files = append(files, persist.CheckpointFile{Path: rel, Before: before, After: after})
		}
	}
	for rel, before := range p.before {
		if _, ok := w.files[rel]; !ok {
			delete(r.base, rel)
			files = append(files, persist.CheckpointFile{Path: rel, Before: before, After: persist.FileVersion{Absent: true}})
		}
	}
	return files, w.noted, nil
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
