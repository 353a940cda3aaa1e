package tools

import (
	"fmt"
	"strings"
	"testing"
)

func TestReadResultCap(t *testing.T) {
	tests := []struct {
		window int64
		want   int
	}{
		{0, ReadMaxResultBytes},
		{-1, ReadMaxResultBytes},
		{1_000_000, ReadMaxResultBytes},
		{200_000, 200_000},
		{128_000, 128_000},
		{8_000, readMinResultBytes},
	}
	for _, tt := range tests {
		if got := ReadResultCap(tt.window); got != tt.want {
			t.Errorf("ReadResultCap(%d) = %d, want %d", tt.window, got, tt.want)
		}
	}
}

// TestReadCap reads a file of long lines with a large limit: the result stays
// under the cap, ends at a whole line and names the offset to read on from,
// and reading on from it continues at the next line.
func TestReadCap(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(&b, "line %d %s\n", i, strings.Repeat("x", 1000))
	}
	env, root := newTestEnv(t)
	writeTestFile(t, root, "big.txt", b.String())
	tests := []struct {
		name      string
		window    int64
		in        ReadInput
		cap       int
		lastShown int // last line in the result; 0: not cut
	}{
		{name: "limit 100000 unknown window", in: ReadInput{FilePath: "big.txt", Limit: 100000}, cap: ReadMaxResultBytes},
		{name: "default limit", in: ReadInput{FilePath: "big.txt"}, cap: ReadMaxResultBytes},
		{name: "small window", window: 32_000, in: ReadInput{FilePath: "big.txt", Limit: 3000}, cap: 32_000},
		{name: "from an offset", in: ReadInput{FilePath: "big.txt", Offset: 4000, Limit: 100000}, cap: ReadMaxResultBytes},
		{name: "fits: not cut", in: ReadInput{FilePath: "big.txt", Offset: 10, Limit: 20}, cap: ReadMaxResultBytes, lastShown: 29},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env.ContextWindow = tt.window
			res, err := runTool(t, Read{}, env, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Output) > tt.cap {
				t.Fatalf("result is %d bytes, cap %d", len(res.Output), tt.cap)
			}
			if tt.lastShown > 0 {
				if strings.Contains(res.Output, "output cut") || !strings.Contains(res.Output, fmt.Sprintf("%6d\tline %d ", tt.lastShown, tt.lastShown)) {
					t.Fatalf("expected lines up to %d uncut:\n%s", tt.lastShown, res.Output[len(res.Output)-200:])
				}
				return
			}
			var next int
			i := strings.LastIndex(res.Output, "call Read with offset ")
			if i < 0 {
				t.Fatalf("no read-on offset in the tail:\n%s", res.Output[len(res.Output)-300:])
			}
			fmt.Sscanf(res.Output[i+len("call Read with offset "):], "%d", &next)
			if !strings.Contains(res.Output, fmt.Sprintf("%6d\tline %d ", next-1, next-1)) || strings.Contains(res.Output, fmt.Sprintf("%6d\tline %d ", next, next)) {
				t.Fatalf("offset %d is not the line after the last one shown", next)
			}
			on, err := runTool(t, Read{}, env, ReadInput{FilePath: "big.txt", Offset: next, Limit: 1})
			if err != nil || !strings.HasPrefix(on.Output, fmt.Sprintf("%6d\tline %d ", next, next)) {
				t.Fatalf("reading on from %d: %v %.80q", next, err, on.Output)
			}
		})
	}
}
