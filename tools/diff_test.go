package tools

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// numbered returns lines "line 1\n" ... "line n\n".
func numbered(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("line %d\n", i+1)
	}
	return out
}

func join(lines []string) string { return strings.Join(lines, "") }

// replaced returns a copy of lines with lines[i] replaced for each i in idx.
func replaced(lines []string, idx ...int) []string {
	out := append([]string(nil), lines...)
	for _, i := range idx {
		out[i] = "changed " + out[i]
	}
	return out
}

// diffCases are inputs on which UnifiedDiff must agree with GNU diff -u.
func diffCases() []struct{ name, old, new string } {
	twenty := numbered(20)
	big := numbered(10000)
	bigChanged := replaced(big, 10, 500, 503, 4000, 9999)
	bigChanged = append(bigChanged[:7000:7000], append([]string{"inserted a\n", "inserted b\n"}, bigChanged[7000:]...)...)
	bigChanged = append(bigChanged[:2000:2000], bigChanged[2010:]...)
	return []struct{ name, old, new string }{
		{"one change", join(twenty), join(replaced(twenty, 9))},
		{"far apart: two hunks", join(twenty), join(replaced(twenty, 2, 17))},
		{"six apart: merged", join(twenty), join(replaced(twenty, 5, 12))},
		{"seven apart: split", join(twenty), join(replaced(twenty, 5, 13))},
		{"insert at start", join(twenty), "new first\n" + join(twenty)},
		{"delete at end", join(twenty), join(twenty[:18])},
		{"old lacks final newline", "a\nb\nc", "a\nb\nc\n"},
		{"new lacks final newline", "a\nb\nc\n", "a\nb\nc"},
		{"both lack final newline", "a\nb\nc", "a\nB\nc"},
		{"unchanged last line without newline", "a\nb\nc\nd\ne\nf", "A\nb\nc\nd\ne\nf"},
		{"empty to new", "", "x\ny\n"},
		{"all deleted", "x\ny\n", ""},
		{"single line", "x\n", "y\n"},
		{"crlf lines", "a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n"},
		{"10k lines", join(big), join(bigChanged)},
	}
}

func TestUnifiedDiffMatchesGNUDiff(t *testing.T) {
	if _, err := exec.LookPath("diff"); err != nil {
		t.Skip("GNU diff not installed")
	}
	dir := t.TempDir()
	for _, tc := range diffCases() {
		t.Run(tc.name, func(t *testing.T) {
			a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
			if err := os.WriteFile(a, []byte(tc.old), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(b, []byte(tc.new), 0o644); err != nil {
				t.Fatal(err)
			}
			out, _ := exec.Command("diff", "-u", a, b).Output()
			want := dropHeader(string(out))
			got := UnifiedDiff("a/f", "b/f", tc.old, tc.new)
			if !strings.HasPrefix(got, "--- a/f\n+++ b/f\n") {
				t.Fatalf("bad header: %q", firstLines(got, 2))
			}
			if dropHeader(got) != want {
				t.Fatalf("diff differs from GNU diff -u\n--- got:\n%s\n--- want:\n%s", firstLines(dropHeader(got), 40), firstLines(want, 40))
			}
		})
	}
}

func dropHeader(d string) string {
	for range 2 {
		if _, rest, ok := strings.Cut(d, "\n"); ok {
			d = rest
		}
	}
	return d
}

func firstLines(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "")
}

func TestUnifiedDiffExact(t *testing.T) {
	tests := []struct {
		name, old, new, want string
	}{
		{name: "equal", old: "a\n", new: "a\n", want: ""},
		{
			name: "new file",
			old:  "", new: "x\n",
			want: "--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+x\n",
		},
		{
			name: "no newline",
			old:  "a\nb", new: "a\nc",
			want: "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := UnifiedDiff("a/f", "b/f", tt.old, tt.new); got != tt.want {
				t.Fatalf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestDiffStat(t *testing.T) {
	d := UnifiedDiff("a/f", "b/f", "-- sql\nkeep\nold\n", "keep\nnew 1\nnew 2\n")
	added, removed := DiffStat(d)
	if added != 2 || removed != 2 {
		t.Fatalf("DiffStat = +%d -%d, want +2 -2\n%s", added, removed, d)
	}
}

func BenchmarkUnifiedDiff10kLines(b *testing.B) {
	cases := diffCases()
	tc := cases[len(cases)-1]
	for b.Loop() {
		UnifiedDiff("a/f", "b/f", tc.old, tc.new)
	}
}
