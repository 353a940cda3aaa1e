package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// numberedLines returns n lines "line 001" ... (9 bytes each).
func numberedLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %03d\n", i)
	}
	return b.String()
}

func TestSpill(t *testing.T) {
	long := numberedLines(200) // 1800 characters
	tests := []struct {
		name      string
		id        string
		output    string
		cap       int
		spilled   bool
		wantFile  string // base name of the spill file
		shownHas  []string
		shownNot  []string
		withinCap bool
	}{
		{name: "short output unchanged", id: "c1", output: "hello\n", cap: 100},
		{name: "exactly at the cap", id: "c1", output: strings.Repeat("x", 100), cap: 100},
		{name: "no cap", id: "c1", output: long, cap: 0},
		{name: "multi-byte within the cap in runes", id: "c1", output: strings.Repeat("é", 80), cap: 100},
		{
			name: "long output spilled", id: "call_1", output: long, cap: 600, spilled: true, wantFile: "call_1.txt",
			shownHas:  []string{"line 001\n", "line 200\n", "omitted (", "characters) ...]", "The full output (1800 characters, 200 lines) is in ", "call_1.txt", "Read with offset/limit, or Grep"},
			shownNot:  []string{"line 100\n"},
			withinCap: true,
		},
		{
			name: "unsafe id is sanitised", id: "../../x/y", output: long, cap: 600, spilled: true, wantFile: ".._.._x_y.txt",
			withinCap: true,
		},
		{
			name: "tiny cap keeps a minimum", id: "c2", output: long, cap: 10, spilled: true, wantFile: "c2.txt",
			shownHas: []string{"line 001", "line 200", "c2.txt"},
		},
		{
			name: "one long line", id: "c3", output: strings.Repeat("ab", 2000), cap: 500, spilled: true, wantFile: "c3.txt",
			shownHas: []string{"abab", "characters omitted ...]"}, withinCap: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "spill", "sub")
			shown, path, err := Spill(dir, tt.id, tt.output, tt.cap)
			if err != nil {
				t.Fatal(err)
			}
			if !tt.spilled {
				if shown != tt.output || path != "" {
					t.Fatalf("changed: shown %d chars, path %q", len(shown), path)
				}
				if _, err := os.Stat(dir); err == nil {
					t.Error("spill directory created for a short output")
				}
				return
			}
			if filepath.Base(path) != tt.wantFile || filepath.Dir(path) != dir {
				t.Errorf("path = %q, want %s in %s", path, tt.wantFile, dir)
			}
			data, err := os.ReadFile(path)
			if err != nil || string(data) != tt.output {
				t.Fatalf("spill file holds %d bytes (%v), want the whole output", len(data), err)
			}
			for p, want := range map[string]os.FileMode{path: 0o600, dir: 0o700} {
				if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
					t.Errorf("%s: mode %v, want %v", p, fi.Mode().Perm(), want)
				}
			}
			if !strings.Contains(shown, path) {
				t.Errorf("shown does not name %s", path)
			}
			for _, s := range tt.shownHas {
				if !strings.Contains(shown, s) {
					t.Errorf("shown lacks %q:\n%s", s, shown)
				}
			}
			for _, s := range tt.shownNot {
				if strings.Contains(shown, s) {
					t.Errorf("shown has %q", s)
				}
			}
			if n := utf8.RuneCountInString(shown); tt.withinCap && n > tt.cap {
				t.Errorf("shown has %d characters, cap %d", n, tt.cap)
			}
			if !utf8.ValidString(shown) {
				t.Error("shown is not valid UTF-8")
			}
		})
	}
}

func TestSpillCutsOnLinesAndRunes(t *testing.T) {
	dir := t.TempDir()
	shown, _, err := Spill(dir, "c", numberedLines(500), 900)
	if err != nil {
		t.Fatal(err)
	}
	head, rest, ok := strings.Cut(shown, "\n[... ")
	if !ok {
		t.Fatalf("no marker:\n%s", shown)
	}
	if !strings.HasSuffix(head, "\n") || !strings.HasPrefix(head, "line 001\n") {
		t.Errorf("head not cut at a line end: %q", head[max(0, len(head)-20):])
	}
	_, tail, _ := strings.Cut(rest, "characters) ...]\n")
	if !strings.HasPrefix(tail, "line ") {
		t.Errorf("tail not cut at a line start: %q", tail[:min(20, len(tail))])
	}
	// The marker names the lines that are missing.
	headLines := strings.Count(head, "\n")
	tailFirst := strings.TrimPrefix(tail[:8], "line ")
	if !strings.Contains(rest, fmt.Sprintf("lines %d-%d omitted", headLines+1, mustAtoi(t, tailFirst)-1)) {
		t.Errorf("marker wrong (head %d lines, tail from line %s): %q", headLines, tailFirst, rest[:60])
	}

	// Multi-byte characters are never split.
	shown, _, err = Spill(dir, "u", strings.Repeat("日本語", 1000), 300)
	if err != nil {
		t.Fatal(err)
	}
	if !utf8.ValidString(shown) || utf8.RuneCountInString(shown) > 300 {
		t.Errorf("bad cut: valid %v, %d characters", utf8.ValidString(shown), utf8.RuneCountInString(shown))
	}
}

// TestSpillWithinCap checks the size promise over many caps and shapes.
func TestSpillWithinCap(t *testing.T) {
	dir := t.TempDir()
	outputs := []string{numberedLines(1000), strings.Repeat("x", 5000), strings.Repeat("ü\n", 3000), "a\n" + strings.Repeat("b", 4000) + "\nc"}
	for i, out := range outputs {
		for c := 600; c < 3000; c += 37 { // room for the file line (a long temp path) and the marker
			shown, _, err := Spill(dir, fmt.Sprintf("c%d", i), out, c)
			if err != nil {
				t.Fatal(err)
			}
			if n := utf8.RuneCountInString(shown); n > c || !utf8.ValidString(shown) {
				t.Fatalf("output %d, cap %d: %d characters", i, c, n)
			}
		}
	}
}

func TestSpillMarker(t *testing.T) {
	tests := []struct {
		chars, first, last int
		want               string
	}{
		{100, 15, 293, "\n[... lines 15-293 omitted (100 characters) ...]\n"},
		{7, 3, 3, "\n[... line 3 omitted (7 characters) ...]\n"},
		{50, 0, 0, "\n[... 50 characters omitted ...]\n"},
		{50, 4, 3, "\n[... 50 characters omitted ...]\n"},
	}
	for _, tt := range tests {
		if got := spillMarker(tt.chars, tt.first, tt.last); got != tt.want {
			t.Errorf("spillMarker(%d, %d, %d) = %q, want %q", tt.chars, tt.first, tt.last, got, tt.want)
		}
	}
}

func TestSpillEmptyIDAndOverwrite(t *testing.T) {
	dir := t.TempDir()
	_, p1, err := Spill(dir, "", numberedLines(100), 200)
	if err != nil {
		t.Fatal(err)
	}
	_, p2, err := Spill(dir, "", numberedLines(100), 200)
	if err != nil {
		t.Fatal(err)
	}
	if p1 == p2 || !strings.HasPrefix(filepath.Base(p1), "output-") || filepath.Ext(p1) != ".txt" {
		t.Errorf("unnamed spills: %q %q", p1, p2)
	}
	// The same call ID again replaces its file, and leaves no temporary files.
	if _, _, err := Spill(dir, "same", numberedLines(100), 200); err != nil {
		t.Fatal(err)
	}
	if _, p, err := Spill(dir, "same", numberedLines(120), 200); err != nil || readFileString(t, p) != numberedLines(120) {
		t.Errorf("second spill: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("dir has %d entries, want 3", len(entries))
	}
}

func TestSpillWriteError(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := numberedLines(200)
	shown, path, err := Spill(filepath.Join(blocker, "dir"), "c", out, 400)
	if err == nil || path != "" {
		t.Fatalf("err = %v, path = %q", err, path)
	}
	if !strings.Contains(shown, "characters) ...]") || strings.Contains(shown, "The full output") || utf8.RuneCountInString(shown) > 400 {
		t.Errorf("fallback view wrong:\n%s", shown)
	}
}

// readFileString returns the content of p.
func readFileString(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// mustAtoi parses a decimal number.
func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
