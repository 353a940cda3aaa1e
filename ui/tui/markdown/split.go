package markdown

import "strings"

// Splitter finds stable split points in a markdown source that grows at its
// end (a streaming assistant message), so that a caller can keep the
// rendering of the finished part and re-render only the tail.
//
// A split point is the start of a line that follows a blank line, lies
// outside any fenced code block and starts with a non-space character. For
// such a point k, Render(src[:k]) followed by one blank line and then
// Render(src[k:]) equals Render(src) (when both parts render to something);
// Render keeps blank-line separated blocks apart for exactly this reason.
//
// The zero Splitter is ready; it scans each complete line once.
type Splitter struct {
	scanned   int // bytes of src already scanned (complete lines)
	inFence   bool
	fenceCh   byte
	fenceN    int
	prevBlank bool
	split     int
}

// Reset forgets everything scanned (use it when the source is replaced
// rather than extended).
func (s *Splitter) Reset() { *s = Splitter{} }

// Advance scans the complete lines of src added since the last call (src
// must extend the previously seen source) and returns the latest split point
// (0 when there is none).
func (s *Splitter) Advance(src string) int {
	if s.scanned > len(src) {
		s.Reset()
	}
	for {
		nl := strings.IndexByte(src[s.scanned:], '\n')
		if nl < 0 {
			return s.split
		}
		start := s.scanned
		line := src[start : start+nl]
		s.scanned += nl + 1
		if s.inFence {
			if isFenceClose(line, s.fenceCh, s.fenceN) {
				s.inFence = false
			}
			s.prevBlank = false
			continue
		}
		blank := isBlank(line)
		if !blank && s.prevBlank && line[0] != ' ' && line[0] != '\t' {
			s.split = start
		}
		if ch, n, _, _, ok := fenceOpen(line); ok {
			s.inFence, s.fenceCh, s.fenceN = true, ch, n
		}
		s.prevBlank = blank
	}
}
