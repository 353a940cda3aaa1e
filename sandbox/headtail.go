package sandbox

import "sync"

// headTail is an io.Writer that keeps the first and the last limit/2 bytes written
// and counts what it dropped in between, so a command that prints gigabytes costs
// bounded memory while its beginning and end (usually the interesting parts) stay.
type headTail struct {
	mu      sync.Mutex
	headCap int
	tailCap int
	head    []byte
	tail    []byte // holds at most 2*tailCap bytes; the last tailCap are kept
	total   int64
}

func newHeadTail(limit int) *headTail {
	h := limit / 2
	return &headTail{headCap: h, tailCap: limit - h}
}

// Write never fails and always reports len(p) written.
func (b *headTail) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	b.total += int64(n)
	if room := b.headCap - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 {
		return n, nil
	}
	if len(p) >= b.tailCap {
		b.tail = append(b.tail[:0], p[len(p)-b.tailCap:]...)
		return n, nil
	}
	b.tail = append(b.tail, p...)
	if len(b.tail) > 2*b.tailCap {
		keep := b.tail[len(b.tail)-b.tailCap:]
		b.tail = append(b.tail[:0], keep...)
	}
	return n, nil
}

// result returns the kept bytes (head then tail) and how many were dropped.
func (b *headTail) result() (string, int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	tail := b.tail
	if len(tail) > b.tailCap {
		tail = tail[len(tail)-b.tailCap:]
	}
	kept := len(b.head) + len(tail)
	return string(b.head) + string(tail), b.total - int64(kept)
}
