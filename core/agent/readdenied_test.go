package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
)

// With a Read deny rule, Grep and Glob run without approval (default mode) but
// their results hold nothing of the denied file: the agent sets
// tools.Env.ReadDenied from its rules.
func TestReadDenyRuleHidesFilesFromGrepAndGlob(t *testing.T) {
	r, err := permission.ParseRule("Read(./.env)")
	if err != nil {
		t.Fatal(err)
	}
	rules := permission.RuleSet{}.Add(permission.Deny, r)
	calls := []struct{ tool, input string }{
		{"Grep", `{"pattern":"TOPSECRET","output_mode":"content"}`},
		{"Grep", `{"pattern":"TOPSECRET","glob":".env","output_mode":"content"}`},
		{"Grep", `{"pattern":"TOPSECRET"}`},
		{"Grep", `{"pattern":"TOPSECRET","output_mode":"count"}`},
		{"Glob", `{"pattern":"**/*"}`},
		{"Glob", `{"pattern":".env"}`},
	}
	var steps []providertest.Step
	for i, c := range calls {
		steps = append(steps, providertest.ToolCalls(providertest.ToolCall(callID(i), c.tool, c.input)))
	}
	prov := &providertest.Scripted{Steps: steps}
	h := newHarnessWith(t, prov, memory.New(), Config{PermissionMode: permission.ModeDefault, Rules: rules}, defaultTools()...)
	root := h.ag.cfg.Workspace.Root()
	for name, body := range map[string]string{".env": "API_TOKEN=TOPSECRET_DOTENV\n", "ok.txt": "TOPSECRET_PUBLIC\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h.submit(context.Background(), "search")
	results := h.toolResults()
	for i, c := range calls {
		res, ok := results[callID(i)]
		if !ok {
			t.Fatalf("%s %s: no result", c.tool, c.input)
		}
		if res.IsError {
			t.Errorf("%s %s: error %q (it should run, with the denied file left out)", c.tool, c.input, res.Text)
		}
		if strings.Contains(res.Text, "DOTENV") || strings.Contains(res.Text, ".env") {
			t.Errorf("%s %s shows the denied file:\n%s", c.tool, c.input, res.Text)
		}
	}
	if r := results[callID(0)]; !strings.Contains(r.Text, "TOPSECRET_PUBLIC") {
		t.Errorf("Grep lost the allowed file:\n%s", r.Text)
	}
}
