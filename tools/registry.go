package tools

import (
	"sort"
	"strings"
	"sync"
)

// Registry holds the tools offered to the model, by name. It is safe for
// concurrent use: tools of MCP servers are added and removed while turns run
// (a server connects after start-up, or says its tool list changed), and each
// model call reads the set as it is then.
type Registry struct {
	mu     sync.RWMutex
	byName map[string]Tool
	order  []string
}

// NewRegistry returns a registry of ts; a later tool with the same name replaces an
// earlier one.
func NewRegistry(ts ...Tool) *Registry {
	r := &Registry{byName: map[string]Tool{}}
	for _, t := range ts {
		r.Add(t)
	}
	return r
}

// Add registers t, replacing a tool of the same name (which keeps its place
// in the order).
func (r *Registry) Add(t Tool) {
	name := t.Spec().Name
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.byName[name]; !ok {
		r.order = append(r.order, name)
	}
	r.byName[name] = t
}

// Remove unregisters the tool called name; it reports whether there was one.
func (r *Registry) Remove(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.byName[name]; !ok {
		return false
	}
	delete(r.byName, name)
	r.order = removeName(r.order, name)
	return true
}

// RemovePrefix unregisters every tool whose name starts with prefix (an MCP
// server's "mcp__NAME__" when it disconnects or relists) and returns how many.
func (r *Registry) RemovePrefix(prefix string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for name := range r.byName {
		if strings.HasPrefix(name, prefix) {
			delete(r.byName, name)
			r.order = removeName(r.order, name)
			n++
		}
	}
	return n
}

func removeName(order []string, name string) []string {
	for i, n := range order {
		if n == name {
			return append(order[:i:i], order[i+1:]...)
		}
	}
	return order
}

// Get returns the tool called name.
func (r *Registry) Get(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.byName[name]
	return t, ok
}

// All returns the tools in registration order.
func (r *Registry) All() []Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Tool, 0, len(r.order))
	for _, n := range r.order {
		out = append(out, r.byName[n])
	}
	return out
}

// Names returns the tool names, sorted.
func (r *Registry) Names() []string {
	r.mu.RLock()
	out := append([]string(nil), r.order...)
	r.mu.RUnlock()
	sort.Strings(out)
	return out
}
