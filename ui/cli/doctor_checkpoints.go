package cli

import (
	"fmt"
	"io"
	"sort"

	"pincer/core/checkpoint"
)

// doctorSessionsShown is how many sessions doctorCheckpoints lists by name,
// the largest first.
const doctorSessionsShown = 10

// doctorCheckpoints prints the checkpoint usage of the store (issue 15):
// blobs and their stored (compressed) bytes, checkpoints, and per session
// its checkpoints and the stored bytes of the blobs they name, the largest
// sessions first; err (the store could not be read) is said instead.
func doctorCheckpoints(w io.Writer, u checkpoint.Usage, err error) {
	fmt.Fprintln(w, "\nCheckpoints ([checkpoints] in config.toml sets the limits):")
	if err != nil {
		fmt.Fprintf(w, "  unknown: %v\n", err)
		return
	}
	fmt.Fprintf(w, "  %d blobs, %s stored; %d checkpoints in %d sessions\n", u.Blobs, mib(u.Bytes), u.Checkpoints, len(u.Sessions))
	ids := make([]string, 0, len(u.Sessions))
	for id := range u.Sessions {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := u.Sessions[ids[i]], u.Sessions[ids[j]]
		if a.Bytes != b.Bytes {
			return a.Bytes > b.Bytes
		}
		return ids[i] < ids[j]
	})
	for i, id := range ids {
		if i == doctorSessionsShown {
			fmt.Fprintf(w, "  and %d more sessions\n", len(ids)-i)
			break
		}
		s := u.Sessions[id]
		fmt.Fprintf(w, "  %s: %d checkpoints, %s\n", id, s.Checkpoints, mib(s.Bytes))
	}
}

// mib is n bytes as MiB with one decimal, or as "N B" under 1 KiB.
func mib(n int64) string {
	if n < 1<<10 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
