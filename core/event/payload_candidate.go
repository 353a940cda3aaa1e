package event

// CandidateProposedData is the payload of candidate.proposed: a candidate
// (core/memory, persist.Candidate) waiting for review (the flat event holds
// the memory type as memoryType: "type" is the event's). ID is the store's id
// (what Backend.DecideCandidate and `pincer memory approve` take); Kind
// "memory" or "skill"; Op add, update or remove; Type the memory type (user,
// feedback, project, reference; "" for a skill); Name, Description and
// Content (the full text of the file to write, "" for a removal); Target the
// absolute path it would be written to; Scope user or project; Origin who
// proposed it (remember-tool, request, slash, observer, skill-observer); Turn
// the turn (from 1) it came from.
type CandidateProposedData struct {
	ID          string `json:"id"`
	Kind        string `json:"kind"`
	Op          string `json:"op"`
	Type        string `json:"memoryType,omitempty"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Content     string `json:"content,omitempty"`
	Target      string `json:"target"`
	Scope       string `json:"scope"`
	Origin      string `json:"origin"`
	Turn        int    `json:"turn,omitempty"`
}

// CandidateDecidedData is the payload of candidate.decided: candidate ID's
// Status (accepted or rejected), whether the person Edited the text first,
// who decided (By: "user", "cli"), its Target, and for an accepted one
// whether the file was written (Applied) or why not yet (Error: a later
// repair writes it).
type CandidateDecidedData struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Status  string `json:"status"`
	Edited  bool   `json:"edited,omitempty"`
	By      string `json:"by"`
	Target  string `json:"target"`
	Applied bool   `json:"applied,omitempty"`
	Error   string `json:"error,omitempty"`
}
