package record

import (
	"runtime"
	"sync"
)

// Decoding JSON is most of the cost of reading a long transcript (about 10 µs per
// message), so long lists are decoded on every CPU.

// parallelMin is the length below which DecodeAll does not start goroutines.
const parallelMin = 512

// DecodeAll decodes raws in order with decode, skipping values that fail; it
// returns the decoded values and how many were skipped.
func DecodeAll[T any](raws [][]byte, decode func([]byte) (T, error)) ([]T, int) {
	out := make([]T, len(raws))
	ok := make([]bool, len(raws))
	workers := min(runtime.GOMAXPROCS(0), len(raws)/parallelMin+1)
	chunk := (len(raws) + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := 0; lo < len(raws); lo += chunk {
		hi := min(lo+chunk, len(raws))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				v, err := decode(raws[i])
				out[i], ok[i] = v, err == nil
			}
		}()
	}
	wg.Wait()
	kept := out[:0]
	for i := range out {
		if ok[i] {
			kept = append(kept, out[i])
		}
	}
	clear(out[len(kept):]) // drop references the compaction left behind
	return kept, len(raws) - len(kept)
}
