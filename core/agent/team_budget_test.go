package agent

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"pincer/core/event"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
)

// F8: two members whose every model call is a SendMessage to the other (the
// red team's a/b ping-pong made 1,076 model calls under --max-turns 3): all
// members' calls together stop at the team's budget, then nothing runs, and
// the lead is reminded that the team is spent.
func TestTeamBudgetBoundsPingPong(t *testing.T) {
	pinger := func(to string) *providertest.Scripted {
		return &providertest.Scripted{Respond: func(n int, req provider.Request) providertest.Step {
			return providertest.ToolCalls(providertest.ToolCall("m"+strconv.Itoa(n), "SendMessage", `{"to":"`+to+`","message":"ping `+strconv.Itoa(n)+`"}`))
		}}
	}
	a, b := pinger("b"), pinger("a")
	sp := &testSpawner{provs: map[string]*providertest.Scripted{"a": a, "b": b}}
	lead := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("t1", "TeamCreate",
			`{"name":"pp","members":[{"name":"a","prompt":"ping b"},{"name":"b","prompt":"ping a"}]}`)),
		providertest.Text("started"),
	}}
	h := newSubHarness(t, lead, sp)
	const budget = 12
	h.ag.teams.maxCalls = budget
	if res := h.submit(context.Background(), "go"); res.Outcome != OutcomeCompleted {
		t.Fatalf("outcome %s: %v", res.Outcome, res.Err)
	}
	if _, err := h.ag.Subagents().WaitAll(context.Background(), h.sess.ID); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the members to be idle", func() bool { return len(h.ag.Subagents().Running(h.sess.ID)) == 0 })
	if n := a.Calls() + b.Calls(); n != budget {
		t.Fatalf("the members made %d model calls (a %d, b %d); want the team's budget, %d", n, a.Calls(), b.Calls(), budget)
	}
	pending := h.ag.takePending(h.sess.ID)
	if !slices.ContainsFunc(pending, func(s string) bool { return strings.Contains(s, "Team pp has spent its budget of 12 model calls") }) {
		t.Errorf("the lead's reminders %q do not say the team is spent", pending)
	}
	// A message to a spent team's member starts nothing.
	before := a.Calls()
	tm, _ := h.ag.teams.team(h.sess.ID, "pp")
	if err := h.ag.sendTeamMessage(context.Background(), tm, teamEnd{name: TeamLead, sessionID: h.sess.ID, agent: h.ag}, "a", "more", ""); err != nil {
		t.Fatal(err)
	}
	if len(h.ag.Subagents().Running(h.sess.ID)) != 0 || a.Calls() != before {
		t.Error("a message to a member of a spent team started a turn")
	}
	if _, err := h.ag.deleteTeam(context.Background(), h.sess.ID, "pp", ""); err != nil {
		t.Fatal(err)
	}
}

// F8: a SendMessage longer than MaxTeamMessageChars reaches the recipient
// cut, with a note of how much was left out.
func TestTeamMessageCut(t *testing.T) {
	quiet := &providertest.Scripted{Respond: func(int, provider.Request) providertest.Step { return providertest.Text("ok") }}
	sp := &testSpawner{provs: map[string]*providertest.Scripted{"m": quiet}}
	lead := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("t1", "TeamCreate", `{"name":"big","members":[{"name":"m","prompt":"wait"}]}`)),
		providertest.Text("started"),
	}}
	h := newSubHarness(t, lead, sp)
	if res := h.submit(context.Background(), "go"); res.Outcome != OutcomeCompleted {
		t.Fatalf("outcome %s: %v", res.Outcome, res.Err)
	}
	waitUntil(t, "the member to be idle", func() bool { return len(h.ag.Subagents().Running(h.sess.ID)) == 0 })
	tm, _ := h.ag.teams.team(h.sess.ID, "big")
	long := strings.Repeat("é", 200000)
	if err := h.ag.sendTeamMessage(context.Background(), tm, teamEnd{name: TeamLead, sessionID: h.sess.ID, agent: h.ag}, "m", long, ""); err != nil {
		t.Fatal(err)
	}
	evs, err := h.store.ListEvents(context.Background(), tm.members[0].run.info.SessionID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	msgs := eventsOf(evs, event.TeamMessage)
	if len(msgs) != 1 {
		t.Fatalf("%d team.message events", len(msgs))
	}
	got := mustDecode[event.TeamMessageData](t, msgs[0]).Message
	if n := utf8.RuneCountInString(got); n > MaxTeamMessageChars+200 || !strings.Contains(got, "180000 more characters were not delivered") {
		t.Errorf("the delivered message has %d characters, ends %q", n, got[len(got)-120:])
	}
	waitUntil(t, "the member's turn for it", func() bool { return len(h.ag.Subagents().Running(h.sess.ID)) == 0 })
	for _, r := range quiet.Requests() {
		for _, m := range r.Messages {
			if utf8.RuneCountInString(m.Text()) > MaxTeamMessageChars+1000 {
				t.Fatalf("the member's request carries a %d-character message", utf8.RuneCountInString(m.Text()))
			}
		}
	}
	if _, err := h.ag.deleteTeam(context.Background(), h.sess.ID, "big", ""); err != nil {
		t.Fatal(err)
	}
}

// The team tools are opt-in, as Claude Code's agent teams: an agent that
// can start subagents offers TeamCreate, SendMessage and TeamDelete only with
// Config.Teams.
func TestTeamToolsOptIn(t *testing.T) {
	for _, on := range []bool{false, true} {
		prov := &providertest.Scripted{Steps: []providertest.Step{providertest.Text("hi")}}
		sp := &testSpawner{}
		var h *harness
		sp.t, sp.parent = t, func() *Agent { return h.ag }
		h = newHarnessWith(t, prov, memory.New(), Config{PermissionMode: permission.ModeDefault, Spawner: sp, Teams: on})
		if res := h.submit(context.Background(), "hi"); res.Outcome != OutcomeCompleted {
			t.Fatalf("outcome %s: %v", res.Outcome, res.Err)
		}
		names := specNames(prov.Request(0).Tools)
		for _, n := range []string{TeamCreateToolName, SendMessageToolName, TeamDeleteToolName} {
			if slices.Contains(names, n) != on {
				t.Errorf("Teams %v: offered %v", on, names)
			}
		}
		if !slices.Contains(names, AgentToolName) {
			t.Errorf("Teams %v: no Agent tool in %v", on, names)
		}
	}
}

// A session has at most MaxTeamsPerSession live teams, a lead agent starts
// at most MaxRunMembers members in all.
func TestTeamCaps(t *testing.T) {
	one := []TeamMemberSpec{{Name: "x", Prompt: "p"}}
	var s teamState
	s.byLead = map[string]map[string]*agentTeam{"L": {}}
	for i := range MaxTeamsPerSession {
		n := "t" + strconv.Itoa(i)
		s.byLead["L"][n] = &agentTeam{name: n}
	}
	if err := s.checkTeam("L", "more", one); err == nil || !strings.Contains(err.Error(), "live teams") {
		t.Errorf("team past the session's cap: %v", err)
	}
	if err := s.checkTeam("M", "first", one); err != nil {
		t.Errorf("another session's first team: %v", err)
	}
	s.members = MaxRunMembers
	if err := s.checkTeam("M", "first", one); err == nil || !strings.Contains(err.Error(), "cap of") {
		t.Errorf("members past the process's cap: %v", err)
	}
}
