package agent

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
)

// reqHas reports whether any message of req holds s.
func reqHas(req provider.Request, s string) bool {
	return slices.ContainsFunc(req.Messages, func(m message.Message) bool { return strings.Contains(m.Text(), s) })
}

// reqHasResult reports whether req holds the result of tool call id.
func reqHasResult(req provider.Request, id string) bool {
	_, ok := toolResultText(req, id)
	return ok
}

// waitUntil polls cond for up to 10 s.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A team of two members exchanging one message each way, through the real
// engine: the lead's TeamCreate starts alice and bob in the background;
// alice's SendMessage reaches bob's next model call (idle, he gets a turn with
// it), bob's reply reaches alice's; every message is a team.message in the
// sender's and the recipient's logs; members are offered SendMessage but never
// Agent or TeamCreate; the lead's TeamDelete ends the team.
func TestTeamExchangesMessages(t *testing.T) {
	const ping, pong = "ping from alice: the parser is in p.go", "pong from bob: got it"
	alice := &providertest.Scripted{Respond: func(n int, req provider.Request) providertest.Step {
		switch {
		case reqHas(req, pong):
			return providertest.Text("alice got the pong")
		case reqHasResult(req, "a1"):
			return providertest.Text("alice sent the ping")
		}
		return providertest.ToolCalls(providertest.ToolCall("a1", "SendMessage", `{"to":"bob","message":"`+ping+`"}`))
	}}
	bob := &providertest.Scripted{Respond: func(n int, req provider.Request) providertest.Step {
		switch {
		case reqHasResult(req, "b1"):
			return providertest.Text("bob replied")
		case reqHas(req, ping):
			return providertest.ToolCalls(providertest.ToolCall("b1", "SendMessage", `{"to":"alice","message":"`+pong+`"}`))
		}
		return providertest.Text("bob is ready and waits for alice")
	}}
	sp := &testSpawner{provs: map[string]*providertest.Scripted{"alice": alice, "bob": bob}}
	create := `{"name":"pair","members":[{"name":"alice","agent_type":"Explore","prompt":"Tell bob where the parser is."},` +
		`{"name":"bob","prompt":"Wait for alice and answer her."}]}`
	lead := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("t1", "TeamCreate", create)),
		providertest.Text("the team is working"),
		providertest.ToolCalls(providertest.ToolCall("t2", "TeamDelete", `{"name":"pair"}`)),
		providertest.Text("team deleted"),
	}}
	h := newSubHarness(t, lead, sp)
	if res := h.submit(context.Background(), "start a pair"); res.Outcome != OutcomeCompleted {
		t.Fatalf("outcome %s: %v", res.Outcome, res.Err)
	}
	if got, _ := toolResultText(lead.Request(1), "t1"); !strings.Contains(got, "Team pair started") || !strings.Contains(got, "alice (Explore) agentId: ") {
		t.Fatalf("TeamCreate result %q", got)
	}
	created := eventsOf(h.events(), event.TeamCreated)
	if len(created) != 1 {
		t.Fatalf("%d team.created in the lead's log", len(created))
	}
	cd := mustDecode[event.TeamCreatedData](t, created[0])
	if cd.Team != "pair" || len(cd.Members) != 2 || cd.Members[0].Name != "alice" || cd.Members[1].AgentType != "general-purpose" {
		t.Fatalf("team.created %+v", cd)
	}
	sess := map[string]string{"lead": h.sess.ID, "alice": cd.Members[0].ChildSessionID, "bob": cd.Members[1].ChildSessionID}

	waitUntil(t, "alice to read bob's pong", func() bool {
		for _, r := range alice.Requests() {
			if reqHas(r, pong) {
				return true
			}
		}
		return false
	})
	waitUntil(t, "both members to be idle", func() bool { return len(h.ag.Subagents().Running(h.sess.ID)) == 0 })

	msgs := func(who string) []event.TeamMessageData {
		evs, err := h.store.ListEvents(context.Background(), sess[who], 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		var out []event.TeamMessageData
		for _, ev := range eventsOf(evs, event.TeamMessage) {
			out = append(out, mustDecode[event.TeamMessageData](t, ev))
		}
		return out
	}
	wantPing := event.TeamMessageData{Team: "pair", From: "alice", FromSessionID: sess["alice"], To: "bob", ToSessionID: sess["bob"], Message: ping}
	wantPong := event.TeamMessageData{Team: "pair", From: "bob", FromSessionID: sess["bob"], To: "alice", ToSessionID: sess["alice"], Message: pong}
	for _, who := range []string{"alice", "bob"} {
		got := msgs(who)
		if len(got) != 2 || !slices.Contains(got, wantPing) || !slices.Contains(got, wantPong) {
			t.Errorf("%s's log has team.message %+v; want the ping and the pong", who, got)
		}
	}
	if got := msgs("lead"); len(got) != 0 {
		t.Errorf("the lead's log has messages it neither sent nor got: %+v", got)
	}
	for name, p := range map[string]*providertest.Scripted{"alice": alice, "bob": bob} {
		names := specNames(p.Request(0).Tools)
		if !slices.Contains(names, "SendMessage") || slices.Contains(names, "Agent") || slices.Contains(names, "TeamCreate") || slices.Contains(names, "TeamDelete") {
			t.Errorf("%s was offered %v: want SendMessage, never Agent or the lead's team tools", name, names)
		}
	}
	if names := specNames(lead.Request(0).Tools); !slices.Contains(names, "TeamCreate") || !slices.Contains(names, "SendMessage") || !slices.Contains(names, "TeamDelete") {
		t.Errorf("the lead was offered %v", names)
	}
	if !reqHas(bob.Requests()[len(bob.Requests())-1], "Message from alice (team pair)") {
		t.Error("bob's request does not carry alice's message as a reminder")
	}

	if res := h.submit(context.Background(), "end the team"); res.Outcome != OutcomeCompleted {
		t.Fatalf("outcome %s: %v", res.Outcome, res.Err)
	}
	if got, _ := toolResultText(lead.Request(3), "t2"); !strings.Contains(got, "Team pair deleted; members: alice (idle), bob (idle)") {
		t.Errorf("TeamDelete result %q", got)
	}
	if len(eventsOf(h.events(), event.TeamDeleted)) != 1 {
		t.Error("no team.deleted in the lead's log")
	}
	if _, _, ok := h.ag.teams.memberNamed(h.sess.ID, "alice"); ok {
		t.Error("the deleted team is still registered")
	}
}

// TeamCreate refuses bad teams before it starts anything.
func TestTeamCreateRefuses(t *testing.T) {
	var s teamState
	long := strings.Repeat("x", 65)
	m := func(names ...string) []TeamMemberSpec {
		var out []TeamMemberSpec
		for _, n := range names {
			out = append(out, TeamMemberSpec{Name: n, Prompt: "do"})
		}
		return out
	}
	cases := []struct {
		name    string
		members []TeamMemberSpec
		want    string
	}{
		{"", m("a"), "team name"},
		{"bad name", m("a"), "team name"},
		{long, m("a"), "team name"},
		{"t", nil, "1 to 8"},
		{"t", m("a", "b", "c", "d", "e", "f", "g", "h", "i"), "1 to 8"},
		{"t", m("lead"), "lead's"},
		{"t", m("Lead"), "lead's"},
		{"t", m("a", "a"), "two members"},
		{"t", m("../x"), "member name"},
		{"t", []TeamMemberSpec{{Name: "a", Prompt: " "}}, "no prompt"},
	}
	for _, c := range cases {
		err := s.checkTeam("S", c.name, c.members)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("checkTeam(%q, %v) = %v, want %q", c.name, c.members, err, c.want)
		}
	}
	if err := s.checkTeam("S", "ok", m("a", "b")); err != nil {
		t.Errorf("a good team: %v", err)
	}
}

// The team tools' schemas and their typed inputs name the same fields.
func TestTeamSchemasMatchInputs(t *testing.T) {
	cases := []struct {
		schema string
		input  any
	}{
		{teamCreateSchema, teamCreateInput{}},
		{sendMessageSchema, sendMessageInput{}},
		{teamDeleteSchema, teamDeleteInput{}},
		{`{"properties":` + string(mustJSONField(t, teamCreateSchema)) + `}`, TeamMemberSpec{}},
	}
	for _, c := range cases {
		var schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal([]byte(c.schema), &schema); err != nil {
			t.Fatal(err)
		}
		var props, fields []string
		for k := range schema.Properties {
			props = append(props, k)
		}
		rt := reflect.TypeOf(c.input)
		for i := range rt.NumField() {
			fields = append(fields, strings.Split(rt.Field(i).Tag.Get("json"), ",")[0])
		}
		sort.Strings(props)
		sort.Strings(fields)
		if !reflect.DeepEqual(props, fields) {
			t.Errorf("%T: schema %v, struct %v", c.input, props, fields)
		}
	}
}

// mustJSONField is the members' item properties of TeamCreate's schema.
func mustJSONField(t *testing.T, schema string) json.RawMessage {
	var s struct {
		Properties struct {
			Members struct {
				Items struct {
					Properties json.RawMessage `json:"properties"`
				} `json:"items"`
			} `json:"members"`
		} `json:"properties"`
	}
	if err := json.Unmarshal([]byte(schema), &s); err != nil {
		t.Fatal(err)
	}
	return s.Properties.Members.Items.Properties
}

// Two members that answer every message with another run at most
// maxTurns runs each (MaxMemberTurns in production; a run is a turn and the
// turns a message arriving as it ends adds, maxReminderTurns at most), then
// stay idle: the exchange cannot go on without end.
func TestTeamMemberTurnsCapped(t *testing.T) {
	chatty := func(to string) *providertest.Scripted {
		return &providertest.Scripted{Respond: func(n int, req provider.Request) providertest.Step {
			if last := req.Messages[len(req.Messages)-1]; last.Role == message.RoleUser && !strings.Contains(last.Text(), "Message sent") {
				if _, isResult := last.ToolResult(); !isResult { // a prompt or a reminder: answer it
					return providertest.ToolCalls(providertest.ToolCall("m"+strconv.Itoa(n), "SendMessage", `{"to":"`+to+`","message":"again `+strconv.Itoa(n)+`"}`))
				}
			}
			return providertest.Text("sent")
		}}
	}
	alice, bob := chatty("bob"), chatty("alice")
	sp := &testSpawner{provs: map[string]*providertest.Scripted{"alice": alice, "bob": bob}}
	lead := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("t1", "TeamCreate",
			`{"name":"loop","members":[{"name":"alice","prompt":"talk"},{"name":"bob","prompt":"talk"}]}`)),
		providertest.Text("started"),
	}}
	h := newSubHarness(t, lead, sp)
	h.ag.teams.maxTurns = 3
	if res := h.submit(context.Background(), "go"); res.Outcome != OutcomeCompleted {
		t.Fatalf("outcome %s: %v", res.Outcome, res.Err)
	}
	// each run of a member is at most 1+maxReminderTurns turns of a budget's calls
	limit := 3 * (1 + maxReminderTurns) * DefaultSubagentIterations
	last, stable := -1, 0
	waitUntil(t, "the exchange to stop", func() bool {
		n := alice.Calls() + bob.Calls()
		if n == last && len(h.ag.Subagents().Running(h.sess.ID)) == 0 {
			stable++
		} else {
			last, stable = n, 0
		}
		return stable >= 40 // 200 ms without a call
	})
	if alice.Calls() > limit || bob.Calls() > limit {
		t.Fatalf("alice %d calls, bob %d: want at most %d each", alice.Calls(), bob.Calls(), limit)
	}
	if _, err := h.ag.deleteTeam(context.Background(), h.sess.ID, "loop", ""); err != nil {
		t.Fatal(err)
	}
}
