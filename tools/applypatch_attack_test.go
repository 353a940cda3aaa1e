package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestApplyPatchPathGuard: no form of a path out of the workspace is written,
// removed or moved to; the marker file outside stays as it was.
func TestApplyPatchPathGuard(t *testing.T) {
	outside := t.TempDir()
	marker := filepath.Join(outside, "marker.txt")
	for _, c := range []struct{ name, patch string }{
		{"add ../", "*** Begin Patch\n*** Add File: RELMARKER\n+PWNED\n*** End Patch"},
		{"add absolute", "*** Begin Patch\n*** Add File: " + marker + "\n+PWNED\n*** End Patch"},
		{"delete absolute", "*** Begin Patch\n*** Delete File: " + marker + "\n*** End Patch"},
		{"update absolute", "*** Begin Patch\n*** Update File: " + marker + "\n@@\n-keep\n+PWNED\n*** End Patch"},
		{"add through a symlinked dir", "*** Begin Patch\n*** Add File: link/marker.txt\n+PWNED\n*** End Patch"},
		{"update through a symlinked file", "*** Begin Patch\n*** Update File: filelink\n@@\n-keep\n+PWNED\n*** End Patch"},
		{"delete through a symlinked file", "*** Begin Patch\n*** Delete File: filelink\n*** End Patch"},
		{"move out by ../", "*** Begin Patch\n*** Update File: in.txt\n*** Move to: RELMARKER\n@@\n-in\n+PWNED\n*** End Patch"},
		{"move out through a symlink", "*** Begin Patch\n*** Update File: in.txt\n*** Move to: link/marker.txt\n@@\n-in\n+PWNED\n*** End Patch"},
		{"good hunk then a bad one", "*** Begin Patch\n*** Add File: ok.txt\n+fine\n*** Add File: " + marker + "\n+PWNED\n*** End Patch"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := os.WriteFile(marker, []byte("keep\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			env, root := newTestEnv(t)
			writeTestFile(t, root, "in.txt", "in\n")
			if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(marker, filepath.Join(root, "filelink")); err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(root, marker) // ../../...: the marker by a relative path out of the workspace
			_, err := runTool(t, ApplyPatch{}, env, ApplyPatchInput{Input: strings.ReplaceAll(c.patch, "RELMARKER", rel)})
			if err == nil {
				t.Fatal("the patch was applied")
			}
			if b, rerr := os.ReadFile(marker); rerr != nil || string(b) != "keep\n" {
				t.Fatalf("marker changed: %q %v", b, rerr)
			}
			if got := readTestFile(t, root, "in.txt"); got != "in\n" {
				t.Fatalf("in.txt changed: %q", got)
			}
			if _, err := os.Stat(filepath.Join(root, "ok.txt")); err == nil {
				t.Fatal("a hunk before the refused one was written")
			}
			if strings.Contains(err.Error(), "PWNED") {
				t.Logf("error: %v", err)
			}
		})
	}
}

// BenchmarkApplyPatch5000 applies a four-chunk Update to a 5,000-line file
// (plan and write, as Run).
func BenchmarkApplyPatch5000(b *testing.B) {
	var src strings.Builder
	for i := 0; i < 5000; i++ {
		src.WriteString("line number " + itoa(i) + " of the file\n")
	}
	patch := "*** Begin Patch\n*** Update File: big.txt\n"
	for _, at := range []int{100, 1500, 3000, 4900} {
		patch += "@@ line number " + itoa(at-3) + " of the file\n line number " + itoa(at-1) + " of the file\n-line number " + itoa(at) + " of the file\n+changed " + itoa(at) + "\n line number " + itoa(at+1) + " of the file\n"
	}
	patch += "*** End Patch"
	env, root := newTestEnv(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		writeTestFile(b, root, "big.txt", src.String())
		b.StartTimer()
		if _, err := runTool(b, ApplyPatch{}, env, ApplyPatchInput{Input: patch}); err != nil {
			b.Fatal(err)
		}
	}
}

func itoa(i int) string {
	return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(i))
}

func fmtInt(i int) string {
	if i == 0 {
		return "0"
	}
	var d []byte
	for ; i > 0; i /= 10 {
		d = append([]byte{byte('0' + i%10)}, d...)
	}
	return string(d)
}
