package agent

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"pincer/core/event"
)

// Agent teams, the seed's minimal protocol (as Claude Code's agent teams):
// a lead session starts named background subagents (TeamCreate), the lead and
// the members send each other explicit messages (SendMessage: the
// recipient's next model call gets it; an idle member gets a turn with it),
// and the lead ends them (TeamDelete). Nothing else is shared: each member
// has its own session, transcript and context window. Every message is a
// team.message event in the sender's and the recipient's logs.

// TeamLead is the name members send the team's lead by.
const TeamLead = "lead"

// MaxTeamMembers caps a team's size.
const MaxTeamMembers = 8

// MaxMemberTurns caps the runs of a member (its first and those messages
// start; a run is a turn plus the few a message arriving as it ends adds:
// runChild), so two members answering each other cannot run without end;
// each turn has the subagent's budget of model calls. A message past the cap
// is still stored for the member (its log has it), but starts nothing.
const MaxMemberTurns = 10

// teamName is what may name a team or a member.
var teamName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`)

// agentTeam is one team of a lead session, held by the lead's agent.
type agentTeam struct {
	name        string
	leadSession string
	lead        *Agent
	members     []*teamMember
	ended       chan struct{} // closed by TeamDelete
	maxTurns    int           // MaxMemberTurns (a test's smaller cap)
	budget      *callBudget   // the members' model calls (team_budget.go)
}

// teamMember is one member: its run in the Subagents registry (re-armed for
// each turn; its wake is the start signal of an idle member's run re-armed
// for a message: Subagents.Deliver).
type teamMember struct {
	name, agentType string
	run             *childRun
	turns           int  // turns started; under the registry's lock
	spentNoted      bool // the lead was told m runs no more (noteSpent)
}

// noteSpent tells the lead, once per member, that a message found m unable
// to run (its MaxMemberTurns used, or the team's budget spent): the
// exchange is over for it. Under the registry's lock.
func (tm *agentTeam) noteSpent(m *teamMember) {
	if m.spentNoted || !tm.budget.left() { // a spent budget is told once for the team (callBudget.spent)
		return
	}
	m.spentNoted = true
	tm.lead.Remind(tm.leadSession, fmt.Sprintf("Team %s: member %s has run its %d turns and runs no more; messages to it start nothing. "+
		"Use the reports you have, and end the team with TeamDelete when done.", tm.name, m.name, tm.maxTurns))
}

// teamState is the teams an agent leads, by lead session and name. The zero
// value is ready.
type teamState struct {
	mu       sync.Mutex
	byLead   map[string]map[string]*agentTeam // lead session -> team name -> team
	maxTurns int                              // a test's cap on member turns; 0: MaxMemberTurns
	maxCalls int                              // a test's team budget of model calls; 0: MaxTeamModelCalls
	members  int                              // members started by this lead agent (MaxRunMembers)
}

// team returns the live team name of lead session sessionID.
func (s *teamState) team(sessionID, name string) (*agentTeam, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tm, ok := s.byLead[sessionID][name]
	return tm, ok
}

// teamsOf lists the live teams of lead session sessionID, by name.
func (s *teamState) teamsOf(sessionID string) []*agentTeam {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*agentTeam
	for _, tm := range s.byLead[sessionID] {
		out = append(out, tm)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// memberNamed finds member name in any live team of lead session sessionID.
func (s *teamState) memberNamed(sessionID, name string) (*agentTeam, *teamMember, bool) {
	for _, tm := range s.teamsOf(sessionID) {
		if m, ok := tm.member(name); ok {
			return tm, m, true
		}
	}
	return nil, nil, false
}

// member returns the member called name.
func (tm *agentTeam) member(name string) (*teamMember, bool) {
	for _, m := range tm.members {
		if m.name == name {
			return m, true
		}
	}
	return nil, false
}

// names lists the members' names.
func (tm *agentTeam) names() []string {
	out := make([]string, len(tm.members))
	for i, m := range tm.members {
		out[i] = m.name
	}
	return out
}

// TeamMemberSpec is one member TeamCreate starts: its name (what SendMessage
// names it by), its agent type ("" is general-purpose) and its task.
type TeamMemberSpec struct {
	Name      string `json:"name"`
	AgentType string `json:"agent_type,omitempty"`
	Prompt    string `json:"prompt"`
}

// checkTeam validates a team's name and members against the lead's live
// teams: names are unique, never "lead", and a member name is not a member of
// another live team of the lead (so SendMessage's "to" names one member).
func (s *teamState) checkTeam(leadSession, name string, members []TeamMemberSpec) error {
	if !teamName.MatchString(name) {
		return fmt.Errorf("team name %q: a letter, then letters, digits, '-' and '_' (at most 64)", name)
	}
	if _, ok := s.team(leadSession, name); ok {
		return fmt.Errorf("a team named %s is running: TeamDelete it first or choose another name", name)
	}
	if len(members) == 0 || len(members) > MaxTeamMembers {
		return fmt.Errorf("a team has 1 to %d members, not %d", MaxTeamMembers, len(members))
	}
	if n := len(s.teamsOf(leadSession)); n >= MaxTeamsPerSession {
		return fmt.Errorf("this session has %d live teams, the most it may: TeamDelete one first", n)
	}
	s.mu.Lock()
	started := s.members
	s.mu.Unlock()
	if started+len(members) > MaxRunMembers {
		return fmt.Errorf("this process has started %d team members; %d more would pass its cap of %d", started, len(members), MaxRunMembers)
	}
	seen := map[string]bool{}
	for _, m := range members {
		switch {
		case !teamName.MatchString(m.Name):
			return fmt.Errorf("member name %q: a letter, then letters, digits, '-' and '_' (at most 64)", m.Name)
		case strings.EqualFold(m.Name, TeamLead):
			return fmt.Errorf("member name %q is the lead's", m.Name)
		case seen[m.Name]:
			return fmt.Errorf("two members are named %s", m.Name)
		case strings.TrimSpace(m.Prompt) == "":
			return fmt.Errorf("member %s has no prompt: say what it is to do", m.Name)
		}
		if tm, _, ok := s.memberNamed(leadSession, m.Name); ok {
			return fmt.Errorf("member name %s is taken by team %s", m.Name, tm.name)
		}
		seen[m.Name] = true
	}
	return nil
}

// createTeam starts the members of team name for lead session leadSession
// (from its tool call toolCallID, in turn turnID): each a background child
// (subagent.started in the lead's log, Team and Member set), then team.created
// in the lead's log, then each member's first turn. When a member cannot be
// built the ones already started are cancelled and nothing is registered.
func (a *Agent) createTeam(ctx context.Context, leadSession, toolCallID, turnID, name string, specs []TeamMemberSpec) (*agentTeam, error) {
	if err := a.teams.checkTeam(leadSession, name, specs); err != nil {
		return nil, err
	}
	tm := &agentTeam{name: name, leadSession: leadSession, lead: a, ended: make(chan struct{}), maxTurns: a.teams.maxTurns}
	if tm.maxTurns <= 0 {
		tm.maxTurns = MaxMemberTurns
	}
	maxCalls := a.teams.maxCalls
	if maxCalls <= 0 {
		maxCalls = MaxTeamModelCalls
	}
	tm.budget = &callBudget{max: maxCalls, spent: func() {
		a.Remind(leadSession, fmt.Sprintf("Team %s has spent its budget of %d model calls: its members run no more turns, and messages to them start none. "+
			"Use the reports you have, and end the team with TeamDelete.", name, maxCalls))
	}}
	for _, sp := range specs {
		req := SpawnRequest{ParentSessionID: leadSession, ToolCallID: toolCallID, AgentType: agentTypeOr(sp.AgentType),
			Description: sp.Name, Background: true, ParentMode: a.Mode(), ParentModel: a.model(), Team: name, Member: sp.Name}
		r, err := a.startChild(ctx, req, turnID)
		if err != nil {
			for _, m := range tm.members { // end them as cancelled runs: subagent.completed closes each one's start
				m.run.cancel(errors.New("the team was not created"))
				a.runChild(m.run, sp.Prompt, turnID)
			}
			return nil, fmt.Errorf("member %s: %w", sp.Name, err)
		}
		m := &teamMember{name: sp.Name, agentType: req.AgentType, run: r, turns: 1}
		r.agent.setBudget(r.info.SessionID, tm.budget)
		r.wake = make(chan struct{}, 1)
		r.mayStart = func() bool { // under the registry's lock, as a message finds the member idle
			select {
			case <-tm.ended:
				return false
			default:
			}
			if m.turns >= tm.maxTurns || !tm.budget.left() {
				tm.noteSpent(m)
				return false
			}
			m.turns++
			return true
		}
		r.again = func() bool { // under the registry's lock, as the member's turn ends
			select {
			case <-tm.ended:
				return false
			default:
			}
			if !m.run.agent.HasReminders(m.run.info.SessionID) {
				return false
			}
			if m.turns >= tm.maxTurns || !tm.budget.left() {
				tm.noteSpent(m)
				return false
			}
			m.turns++
			return true
		}
		tm.members = append(tm.members, m)
	}
	a.teams.mu.Lock()
	if a.teams.byLead == nil {
		a.teams.byLead = map[string]map[string]*agentTeam{}
	}
	if a.teams.byLead[leadSession] == nil {
		a.teams.byLead[leadSession] = map[string]*agentTeam{}
	}
	a.teams.byLead[leadSession][name] = tm
	a.teams.members += len(tm.members)
	a.teams.mu.Unlock()
	data := event.TeamCreatedData{Team: name}
	for _, m := range tm.members {
		data.Members = append(data.Members, event.TeamMember{Name: m.name, AgentType: m.agentType, ChildSessionID: m.run.info.SessionID})
	}
	_, _ = a.log.Emit(context.WithoutCancel(ctx), event.TeamCreated, leadSession, turnID, data)
	for i, m := range tm.members {
		go a.memberLoop(tm, m, memberBriefing(tm, m)+specs[i].Prompt)
	}
	return tm, nil
}

// memberBriefing opens a member's first prompt: who it is, who else is on
// the team, how to talk to them.
func memberBriefing(tm *agentTeam, m *teamMember) string {
	var others []string
	for _, n := range tm.names() {
		if n != m.name {
			others = append(others, n)
		}
	}
	peers := "no other members"
	if len(others) > 0 {
		peers = "the other members are " + strings.Join(others, ", ")
	}
	return fmt.Sprintf("You are %s, a member of the agent team %q; %s, and the team's lead is %q. "+
		"Talk to them only with the SendMessage tool (to: a name); their messages to you arrive as system reminders. "+
		"There is no shared state beyond these messages. When you finish your task, end with a short report: the lead receives it.\n\nYour task:\n",
		m.name, tm.name, peers, TeamLead)
}

// wakePrompt is the user message of a member's turn started by a message.
const wakePrompt = "New messages from your team arrived (in the system reminders above). Act on them; reply with SendMessage where one is wanted, then end with a short report."

// memberLoop runs member m: its first turn with prompt, then, until the team
// ends, another turn whenever a message is waiting for it. The run is never
// seen as not running while a message waits: one that arrived during a turn
// re-arms the run as that turn ends (childRun.again, in Subagents.finish);
// one that finds the member idle re-arms it in the sender's call
// (Subagents.Deliver, childRun.mayStart) and signals the loop.
func (a *Agent) memberLoop(tm *agentTeam, m *teamMember, prompt string) {
	for {
		a.runChild(m.run, prompt, "")
		prompt = wakePrompt
		for !a.subagents.running(m.run) { // re-armed as it ended, or later by startIdle
			select {
			case <-tm.ended:
				return
			case <-m.run.wake:
			}
		}
		select {
		case <-m.run.wake: // a start already seen as running
		default:
		}
	}
}

// running reports whether r's run is armed (Running).
func (s *Subagents) running(r *childRun) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return r.info.Running
}

// rearmLocked makes an ended run of r runnable again (a team member's next
// turn): a new context and done channel, Running again. The caller holds the
// registry's lock.
func rearmLocked(r *childRun) {
	ctx, cancel := context.WithCancelCause(context.WithoutCancel(r.ctx))
	r.ctx, r.cancel, r.done = ctx, cancel, make(chan struct{})
	r.info.Running = true
}

// teamEnd is where a SendMessage goes or comes from: a member or the lead.
type teamEnd struct {
	name, sessionID string
	agent           *Agent
	member          *teamMember // nil for the lead
}

// sendTeamMessage delivers text from one end of team tm to the end named to:
// team.message in both sessions' logs (the sender's of its turn turnID),
// then the recipient's next model call gets it (the lead's by Remind, a
// member's by Subagents.Deliver, which wakes an idle one for a turn). A
// message over MaxTeamMessageChars is cut with a note.
func (a *Agent) sendTeamMessage(ctx context.Context, tm *agentTeam, from teamEnd, to, text, turnID string) error {
	select {
	case <-tm.ended:
		return fmt.Errorf("team %s was deleted", tm.name)
	default:
	}
	var dest teamEnd
	if to == TeamLead {
		dest = teamEnd{name: TeamLead, sessionID: tm.leadSession, agent: tm.lead}
	} else if m, ok := tm.member(to); ok {
		dest = teamEnd{name: m.name, sessionID: m.run.info.SessionID, agent: m.run.agent, member: m}
	} else {
		return fmt.Errorf("team %s has no member %q (members: %s; the lead is %q)", tm.name, to, strings.Join(tm.names(), ", "), TeamLead)
	}
	if dest.sessionID == from.sessionID {
		return errors.New("a message to yourself is not sent")
	}
	if strings.TrimSpace(text) == "" {
		return errors.New("the message is empty")
	}
	text = cutMessage(text)
	data := event.TeamMessageData{Team: tm.name, From: from.name, FromSessionID: from.sessionID,
		To: dest.name, ToSessionID: dest.sessionID, Message: text}
	bg := context.WithoutCancel(ctx)
	if _, err := a.log.Emit(bg, event.TeamMessage, from.sessionID, turnID, data); err != nil {
		return err
	}
	if _, err := a.log.Emit(bg, event.TeamMessage, dest.sessionID, "", data); err != nil {
		return err
	}
	msg := teamMessageText(tm.name, from.name, text)
	if dest.member == nil {
		dest.agent.Remind(dest.sessionID, msg)
		return nil
	}
	return a.subagents.Deliver(bg, dest.sessionID, msg)
}

// teamMessageText is a delivered message as its recipient's model reads it.
func teamMessageText(team, from, text string) string {
	return fmt.Sprintf("Message from %s (team %s):\n%s\n(Answer with SendMessage to %q if a reply is wanted.)", from, team, text, from)
}

// deleteTeam ends team name of lead session leadSession: no more messages or
// turns, its running members cancelled, team.deleted in the lead's log. It
// returns each member's state as it was ended ("idle", "cancelled").
func (a *Agent) deleteTeam(ctx context.Context, leadSession, name, turnID string) ([]string, error) {
	a.teams.mu.Lock()
	tm, ok := a.teams.byLead[leadSession][name]
	if ok {
		delete(a.teams.byLead[leadSession], name)
	}
	a.teams.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("no team named %q is running in this session", name)
	}
	close(tm.ended)
	var states []string
	for _, m := range tm.members {
		state := "idle"
		if a.subagents.Cancel(m.run.info.SessionID) {
			state = "cancelled"
			_, _ = a.subagents.Wait(context.WithoutCancel(ctx), m.run.info.SessionID)
		}
		states = append(states, m.name+" ("+state+")")
	}
	_, _ = a.log.Emit(context.WithoutCancel(ctx), event.TeamDeleted, leadSession, turnID, event.TeamDeletedData{Team: name})
	return states, nil
}

// teamOfMember finds the team and the member whose session is sessionID (a
// member's SendMessage): its run says its team and lead.
func (a *Agent) teamOfMember(sessionID string) (*agentTeam, *teamMember, bool) {
	r, ok := a.subagents.get(sessionID)
	if !ok || r.info.Team == "" || r.parent == nil {
		return nil, nil, false
	}
	tm, ok := r.parent.teams.team(r.info.ParentSessionID, r.info.Team)
	if !ok {
		return nil, nil, false
	}
	m, ok := tm.member(r.info.Member)
	return tm, m, ok
}
