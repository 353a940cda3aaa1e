package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pincer/core/agent"
	"pincer/core/provider/openai/openaitest"
)

// F8: members a and b answer every model call with a SendMessage to the
// other (the red team's ping-pong ran 1,076 model calls under --max-turns 3
// until killed): `pincer run` ends by itself, the members' calls stop within
// the team's budget (here their runs' cap comes first: each turn of theirs
// has at most --max-turns calls), and the lead's last request says so.
func TestTeamPingPongEndsHeadless(t *testing.T) {
	var replies []openaitest.Reply
	create := `{"name":"pp","members":[{"name":"a","prompt":"MEMBERA ping b"},{"name":"b","prompt":"MEMBERB ping a"}]}`
	replies = append(replies,
		openaitest.Reply{When: "ping pong", ToolCalls: []openaitest.Call{{ID: "t1", Name: "TeamCreate", Args: create}}},
		openaitest.Reply{When: "ping pong", Text: "the team runs"},
		openaitest.Reply{When: "ping pong", Text: "LEAD-DONE"})
	for i := range agent.MaxTeamModelCalls + 50 {
		n := strconv.Itoa(i)
		replies = append(replies,
			openaitest.Reply{When: "MEMBERA", ToolCalls: []openaitest.Call{{ID: "a" + n, Name: "SendMessage", Args: `{"to":"b","message":"ping ` + n + `"}`}}},
			openaitest.Reply{When: "MEMBERB", ToolCalls: []openaitest.Call{{ID: "b" + n, Name: "SendMessage", Args: `{"to":"a","message":"pong ` + n + `"}`}}})
	}
	e := newEnv(t, replies...)
	if err := os.WriteFile(filepath.Join(e.home, "config.toml"), []byte("[agents]\nteams = true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := e.run(e.runArgs("--max-turns", "3", "ping pong")...)
	if code != 0 || !strings.Contains(out, "LEAD-DONE") {
		t.Fatalf("exit %d, out %q\n%s", code, out, stderr)
	}
	members := len(requestsWith(e, "MEMBERA")) + len(requestsWith(e, "MEMBERB"))
	if members > agent.MaxTeamModelCalls {
		t.Errorf("the members made %d model calls; the team's budget is %d", members, agent.MaxTeamModelCalls)
	}
	leads := requestsWith(e, "ping pong")
	if len(leads) != 3 {
		t.Fatalf("the lead made %d model calls, want 3", len(leads))
	}
	if last := string(mustJSON(leads[2]["messages"])); !strings.Contains(last, "has spent its budget") && !strings.Contains(last, "runs no more") {
		t.Errorf("the lead's last request does not say the team is spent")
	}
}
