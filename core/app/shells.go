package app

import (
	"sync"

	"pincer/core/agent"
)

// derivedAgents are the agents DeriveAgent built for a Run, whose background
// shells end with the Run (Close).
type derivedAgents struct {
	mu     sync.Mutex
	agents []*agent.Agent
}

// add records ag.
func (d *derivedAgents) add(ag *agent.Agent) {
	d.mu.Lock()
	d.agents = append(d.agents, ag)
	d.mu.Unlock()
}

// closeShells ends the background shells of the Run's agent and of every
// agent derived from it (reason session_ended), returning once they have
// ended: the one place a session's processes outlive a tool call ends here,
// with the process (before the store closes, so shell.exited is recorded).
func (r *Run) closeShells() {
	r.derived.mu.Lock()
	agents := append([]*agent.Agent{r.Agent}, r.derived.agents...)
	r.derived.mu.Unlock()
	var wg sync.WaitGroup
	for _, ag := range agents {
		if ag == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ag.CloseShells()
		}()
	}
	wg.Wait()
}
