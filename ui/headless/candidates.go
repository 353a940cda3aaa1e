package headless

import "pincer/core/event"

// Candidate is a memory or skill candidate a run's turn proposed, as the json
// result lists it (issue 16): its id (for `pincer memory approve ID`), kind
// (memory | skill), op, name, the file it would write (Target) and its status
// (pending, unless it was decided while the run ran).
type Candidate struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	Op     string `json:"op"`
	Name   string `json:"name"`
	Target string `json:"target"`
	Status string `json:"status"`
}

// candidates collects the candidates of the events a run handles, in order.
type candidates struct{ list []Candidate }

// see takes candidate.proposed and candidate.decided events.
func (cs *candidates) see(ev event.Event) {
	if ev.Type != event.CandidateProposed && ev.Type != event.CandidateDecided {
		return
	}
	p, err := ev.Payload()
	if err != nil {
		return
	}
	switch d := p.(type) {
	case event.CandidateProposedData:
		cs.list = append(cs.list, Candidate{ID: d.ID, Kind: d.Kind, Op: d.Op, Name: d.Name, Target: d.Target, Status: "pending"})
	case event.CandidateDecidedData:
		for i := range cs.list {
			if cs.list[i].ID == d.ID {
				cs.list[i].Status = d.Status
			}
		}
	}
}
