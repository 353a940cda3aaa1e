package sandbox

import "sync"

// DefaultBackgroundOutput is how many bytes of a background process's output
// a TailBuffer keeps when Command.MaxOutput is zero: the most recent ones.
const DefaultBackgroundOutput = 1 << 20

// TailBuffer is an io.Writer that keeps the last Cap bytes written and counts
// every byte ever written, so a reader can ask for what came after the bytes
// it has already seen (ReadSince). A background process that prints for hours
// costs bounded memory: what no reader fetched in time is dropped, and the
// reader is told how many bytes it missed. It is safe for concurrent use.
type TailBuffer struct {
	mu    sync.Mutex
	limit int
	buf   []byte // the kept bytes; at most 2*limit before it is compacted
	total int64  // bytes written since the start
}

// NewTailBuffer returns a buffer keeping the last limit bytes (limit <= 0
// means DefaultBackgroundOutput).
func NewTailBuffer(limit int) *TailBuffer {
	if limit <= 0 {
		limit = DefaultBackgroundOutput
	}
	return &TailBuffer{limit: limit}
}

// Write keeps p (or its last Cap bytes); it never fails.
func (b *TailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	b.total += int64(n)
	if len(p) >= b.limit {
		b.buf = append(b.buf[:0], p[len(p)-b.limit:]...)
		return n, nil
	}
	b.buf = append(b.buf, p...)
	if len(b.buf) > 2*b.limit {
		keep := b.buf[len(b.buf)-b.limit:]
		b.buf = append(b.buf[:0], keep...)
	}
	return n, nil
}

// ReadSince returns the bytes written after the first offset bytes (offset is
// a count of bytes ever written, as returned by an earlier call), the new
// offset (the total written so far) and how many of the requested bytes are
// no longer kept (dropped > 0 when more than Cap bytes were written since).
func (b *TailBuffer) ReadSince(offset int64) (data []byte, next int64, dropped int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	kept := b.buf
	if len(kept) > b.limit {
		kept = kept[len(kept)-b.limit:]
	}
	first := b.total - int64(len(kept)) // offset of kept[0]
	if offset < first {
		dropped = first - offset
		offset = first
	}
	if offset > b.total {
		offset = b.total
	}
	return append([]byte(nil), kept[offset-first:]...), b.total, dropped
}

// Total is the number of bytes written so far.
func (b *TailBuffer) Total() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.total
}

// Cap is the number of bytes kept.
func (b *TailBuffer) Cap() int { return b.limit }
