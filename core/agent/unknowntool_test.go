package agent

import (
	"context"
	"strings"
	"testing"

	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/tools"
)

// TestUnknownToolListsOfferedTools (issue 17): the unknown tool error names
// the tools the request offered — not ToolSearch when nothing is deferred (it
// was not offered), not Write in plan mode.
func TestUnknownToolListsOfferedTools(t *testing.T) {
	for _, c := range []struct {
		mode      permission.Mode
		want, not []string
	}{
		{permission.ModeDefault, []string{"Read", "Write"}, []string{"ToolSearch"}},
		{permission.ModePlan, []string{"Read"}, []string{"ToolSearch", "Write"}},
	} {
		t.Run(string(c.mode), func(t *testing.T) {
			prov := &providertest.Scripted{Steps: []providertest.Step{
				providertest.ToolCalls(providertest.ToolCall("u1", "Nope", `{}`)),
				providertest.Text("ok"),
			}}
			h := newHarnessWith(t, prov, memory.New(), Config{PermissionMode: c.mode},
				tools.Typed(tools.Read{}), tools.Typed(tools.Write{}), tools.Typed(tools.ToolSearch{}))
			h.submit(context.Background(), "go")
			got := h.toolResults()["u1"].Text
			if !strings.Contains(got, `unknown tool "Nope"`) {
				t.Fatalf("result %q", got)
			}
			_, list, _ := strings.Cut(got, "available tools:")
			for _, w := range c.want {
				if !strings.Contains(list, w) {
					t.Errorf("%s not listed: %q", w, got)
				}
			}
			for _, n := range c.not {
				if strings.Contains(list, n) {
					t.Errorf("%s listed though not offered: %q", n, got)
				}
			}
		})
	}
}
