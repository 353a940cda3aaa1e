package tools

import (
	"strings"
	"testing"
)

// TestBashCountsTheLinesOfTheWholeOutput (Found 13): a 3000-line output cut
// to fit (spilled to a file, or cut in the middle) reports the 3000 lines it
// had in Result.OutputLines, so a view says "200 of 3000", not the lines of
// the cut. An output shown whole reports 0.
func TestBashCountsTheLinesOfTheWholeOutput(t *testing.T) {
	for _, spill := range []bool{true, false} {
		env, _ := newTestEnv(t)
		if spill {
			env.SpillDir, env.ToolCallID = t.TempDir(), "call-lines"
		}
		res, err := runTool(t, Bash{}, env, BashInput{Command: `for i in $(seq 3000); do echo "line $i of a long output, padded to be long enough"; done`})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Count(res.Output, "\n") >= 3000 {
			t.Fatalf("spill %v: the output was not cut", spill)
		}
		if res.OutputLines != 3000 {
			t.Errorf("spill %v: OutputLines = %d, want 3000", spill, res.OutputLines)
		}
	}
	env, _ := newTestEnv(t)
	res, err := runTool(t, Bash{}, env, BashInput{Command: `seq 3`})
	if err != nil || res.OutputLines != 0 {
		t.Errorf("a whole output: OutputLines = %d, %v; want 0", res.OutputLines, err)
	}
}
