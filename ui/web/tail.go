package web

import (
	"context"
	"sync"

	"pincer/core/event"
)

// The streams of one session share its tail: one follower per session with
// any stream open reads the log (a batch, then Wait) and keeps the newest
// events encoded as SSE frames in a bounded window; each stream copies the
// frames after its own cursor at its own pace. Nobody waits for a stream:
// the agent appends to the store, the follower reads the store, a stream
// that falls behind the window reads the store itself. So 50 clients cost
// one store read and one encoding per event, not fifty.

// tailWindow is how many of a session's newest frames its tail keeps.
const tailWindow = 4096

// frame is one event in SSE form.
type frame struct {
	seq  uint64
	data []byte
}

// sessionTail is one session's window of frames and its follower.
type sessionTail struct {
	mu      sync.Mutex
	frames  []frame       // contiguous sequences, oldest first
	next    uint64        // the sequence the follower reads from (after next-1)
	changed chan struct{} // closed when frames are added (or the follower ends)
	err     error         // why the follower ended (nil while it runs)
	users   int
	stop    context.CancelFunc
}

// tails are the sessions' tails, made by the first stream of a session and
// dropped with its last.
type tails struct {
	log *event.Log

	mu sync.Mutex
	by map[string]*sessionTail
}

func newTails(log *event.Log) *tails { return &tails{log: log, by: map[string]*sessionTail{}} }

// acquire returns sessionID's tail, starting its follower from the log's
// current end for the first user; release gives it back.
func (ts *tails) acquire(ctx context.Context, sessionID string) (*sessionTail, func(), error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t := ts.by[sessionID]
	if t == nil {
		last, err := ts.log.LastSequence(ctx, sessionID)
		if err != nil {
			return nil, nil, err
		}
		fctx, stop := context.WithCancel(context.WithoutCancel(ctx))
		t = &sessionTail{next: last + 1, changed: make(chan struct{}), stop: stop}
		ts.by[sessionID] = t
		go t.follow(fctx, ts.log, sessionID)
	}
	t.users++
	return t, func() {
		ts.mu.Lock()
		defer ts.mu.Unlock()
		t.users--
		if t.users == 0 {
			t.stop()
			if ts.by[sessionID] == t {
				delete(ts.by, sessionID)
			}
		}
	}, nil
}

// follow reads the log into the window until ctx ends.
func (t *sessionTail) follow(ctx context.Context, log *event.Log, sessionID string) {
	var err error
	defer func() {
		t.mu.Lock()
		t.err = err
		if t.err == nil {
			t.err = context.Canceled
		}
		close(t.changed)
		t.mu.Unlock()
	}()
	after := t.next - 1
	for {
		var evs []event.Event
		evs, err = log.Read(ctx, sessionID, after, streamBatch)
		if err != nil {
			return
		}
		if len(evs) > 0 {
			add := make([]frame, 0, len(evs))
			for _, ev := range evs {
				var b []byte
				if b, err = encodeFrame(ev); err != nil {
					return
				}
				add = append(add, frame{seq: ev.Sequence, data: b})
				after = ev.Sequence
			}
			t.mu.Lock()
			t.frames = append(t.frames, add...)
			if over := len(t.frames) - tailWindow; over > 0 {
				t.frames = append(t.frames[:0:0], t.frames[over:]...)
			}
			t.next = after + 1
			close(t.changed)
			t.changed = make(chan struct{})
			t.mu.Unlock()
		}
		if len(evs) == streamBatch {
			continue
		}
		if err = log.Wait(ctx, sessionID, after); err != nil {
			return
		}
	}
}

// since returns the frames after sequence after (at most max), and whether
// the window holds what follows after (false: after is older than the
// window, read the store), and the channel closed at the next change.
func (t *sessionTail) since(after uint64, max int) (out []frame, inWindow bool, changed <-chan struct{}, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	changed, err = t.changed, t.err
	first := t.next
	if len(t.frames) > 0 {
		first = t.frames[0].seq
	}
	if after+1 < first {
		return nil, false, changed, err
	}
	i := int(after + 1 - first) // frames are contiguous from first
	if i >= len(t.frames) {
		return nil, true, changed, err
	}
	end := min(len(t.frames), i+max)
	return t.frames[i:end:end], true, changed, err
}

// encodeFrame is an event in SSE form: id, event, data (the flat JSON,
// which has no raw newline), blank line.
func encodeFrame(ev event.Event) ([]byte, error) {
	b, err := ev.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return appendEvent(make([]byte, 0, len(b)+len(ev.Type)+32), ev, b), nil
}
