package sandbox

import (
	"strings"
	"testing"
)

// TestTailBuffer: a reader gets what came after its offset, and is told how
// much it missed once the buffer dropped it.
func TestTailBuffer(t *testing.T) {
	cases := []struct {
		name        string
		limit       int
		writes      []string
		offset      int64
		want        string
		wantNext    int64
		wantDropped int64
	}{
		{"empty", 8, nil, 0, "", 0, 0},
		{"all from the start", 8, []string{"abc", "de"}, 0, "abcde", 5, 0},
		{"since an offset", 8, []string{"abc", "de"}, 3, "de", 5, 0},
		{"nothing new", 8, []string{"abc"}, 3, "", 3, 0},
		{"offset past the end", 8, []string{"abc"}, 9, "", 3, 0},
		{"older bytes dropped", 4, []string{"abcdef"}, 0, "cdef", 6, 2},
		{"many small writes", 4, []string{"ab", "cd", "ef", "gh", "ij"}, 1, "ghij", 10, 5},
		{"reader inside the kept part", 4, []string{"ab", "cd", "ef", "gh", "ij"}, 7, "hij", 10, 0},
		{"one huge write", 3, []string{strings.Repeat("x", 100) + "end"}, 50, "end", 103, 50},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := NewTailBuffer(c.limit)
			for _, w := range c.writes {
				if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			got, next, dropped := b.ReadSince(c.offset)
			if string(got) != c.want || next != c.wantNext || dropped != c.wantDropped {
				t.Errorf("ReadSince(%d) = %q, %d, %d; want %q, %d, %d", c.offset, got, next, dropped, c.want, c.wantNext, c.wantDropped)
			}
		})
	}
}

// TestTailBufferBounded: gigabytes of output cost at most twice the limit.
func TestTailBufferBounded(t *testing.T) {
	b := NewTailBuffer(1 << 10)
	chunk := []byte(strings.Repeat("y", 700))
	for i := 0; i < 20000; i++ {
		_, _ = b.Write(chunk)
	}
	if c := cap(b.buf); c > 4<<10 {
		t.Errorf("buffer capacity %d after 14 MB written with a limit of 1 KiB", c)
	}
	if b.Total() != 700*20000 {
		t.Errorf("Total = %d", b.Total())
	}
}
