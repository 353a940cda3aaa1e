package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestApprovedDiffIsWhatLands: a call a person approved after its Preview
// (Env.ApprovedPreview) writes only while its change is exactly the one
// previewed. A file
// changed between the preview and the write — by a background process, an
// editor — fails with ErrChangedSinceApproval and keeps its bytes, even when
// old_string still matches once.
func TestApprovedDiffIsWhatLands(t *testing.T) {
	for _, tc := range []struct {
		name, tool string
		input      map[string]any
	}{
		{"edit", "Edit", map[string]any{"file_path": "f.txt", "old_string": "A", "new_string": "B"}},
		{"write", "Write", map[string]any{"file_path": "f.txt", "content": "line1\nB\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, root := newTestEnv(t)
			writeTestFile(t, root, "f.txt", "line1\nA\n")
			readFirst(t, env, "f.txt")
			tool, _ := Default().Get(tc.tool)
			input := mustJSON(t, tc.input)
			callEnv := *env
			callEnv.ToolCallID = "call-1"
			approved, err := tool.(Previewer).Preview(&callEnv, input)
			if err != nil {
				t.Fatal(err)
			}
			writeTestFile(t, root, "f.txt", "line1\nA\nEVIL\n") // after the approval, before the write
			callEnv.ApprovedPreview = true
			_, err = tool.Run(context.Background(), &callEnv, input)
			// Write's read-before-change rule refuses first; Edit, whose old_string
			// still matches once, is held by the approved diff.
			if err == nil || tc.tool == "Edit" && !errors.Is(err, ErrChangedSinceApproval) {
				t.Fatalf("Run on a file changed since the approval: %v, want a refusal (Edit: ErrChangedSinceApproval)", err)
			}
			if b, _ := os.ReadFile(filepath.Join(root, "f.txt")); string(b) != "line1\nA\nEVIL\n" {
				t.Fatalf("the file was written: %q", b)
			}

			writeTestFile(t, root, "f.txt", "line1\nA\n") // as it was, previewed and approved again
			readFirst(t, env, "f.txt")
			if _, err := tool.(Previewer).Preview(&callEnv, input); err != nil {
				t.Fatal(err)
			}
			res, err := tool.Run(context.Background(), &callEnv, input)
			if err != nil || res.Diff != approved {
				t.Fatalf("Run of the approved change: %v, diff %q want %q", err, res.Diff, approved)
			}
		})
	}
}

// TestUnifiedDiffIsBounded: a diff before an approval costs bounded work and
// bytes — texts too large are summarised in one line, a long diff is cut at a
// line end — and the bound is the same for Preview and Run (one function).
func TestUnifiedDiffIsBounded(t *testing.T) {
	huge := strings.Repeat("a\n", MaxDiffLines)
	d := UnifiedDiff("a/big", "b/big", huge, strings.ReplaceAll(huge, "a", "bbbb"))
	if !strings.HasPrefix(d, "--- a/big\n+++ b/big\n\\ not shown: too large to diff") || strings.Count(d, "\n") != 3 {
		t.Errorf("huge texts: %q", d)
	}
	var oldB, newB strings.Builder
	for i := range 60_000 {
		fmt.Fprintf(&oldB, "old line number %d\n", i)
		fmt.Fprintf(&newB, "new line number %d\n", i)
	}
	d = UnifiedDiff("a/f", "b/f", oldB.String(), newB.String())
	if len(d) > MaxDiffBytes+200 || !strings.Contains(d, "\\ cut: the diff is ") || !strings.HasSuffix(d, "\n") {
		t.Errorf("long diff: %d bytes, tail %q", len(d), d[max(0, len(d)-120):])
	}
	if small := UnifiedDiff("a/f", "b/f", "x\n", "y\n"); small != "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\n+y\n" {
		t.Errorf("small diff changed: %q", small)
	}
}

// TestApprovedPreviewBindsTheBytesNotTheShownDiff: the approval binds the change
// itself, so a change past the point where a long diff is cut (not shown) is
// refused too, and a call approved without a preview of its own writes nothing.
func TestApprovedPreviewBindsTheBytesNotTheShownDiff(t *testing.T) {
	env, root := newTestEnv(t)
	big := strings.Repeat("x", MaxDiffBytes+1000) + "\nctx2\n"
	writeTestFile(t, root, "f.txt", big)
	readFirst(t, env, "f.txt")
	tool, _ := Default().Get("Edit")
	input := mustJSON(t, map[string]any{"file_path": "f.txt", "old_string": strings.Repeat("x", MaxDiffBytes+1000), "new_string": "X"})
	callEnv := *env
	callEnv.ToolCallID, callEnv.ApprovedPreview = "call-2", true
	if d, err := tool.(Previewer).Preview(&callEnv, input); err != nil || !strings.Contains(d, "\\ cut:") {
		t.Fatalf("preview: %v (cut: %v)", err, strings.Contains(d, "\\ cut:"))
	}
	writeTestFile(t, root, "f.txt", strings.Replace(big, "ctx2", "CTX2", 1)) // past the cut
	if _, err := tool.Run(context.Background(), &callEnv, input); !errors.Is(err, ErrChangedSinceApproval) {
		t.Fatalf("a change past the cut was written: %v", err)
	}
	other := *env
	other.ToolCallID, other.ApprovedPreview = "never-previewed", true
	readFirst(t, env, "f.txt")
	if _, err := tool.Run(context.Background(), &other, input); !errors.Is(err, ErrChangedSinceApproval) {
		t.Fatalf("a call with no preview of its own was written: %v", err)
	}
}
