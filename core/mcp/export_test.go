package mcp

// PID is the process ID of server name's stdio process (0: none), for tests
// that kill it.
func (m *Manager) PID(name string) int {
	m.mu.Lock()
	s := m.servers[name]
	m.mu.Unlock()
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc == nil || s.proc.cmd.Process == nil {
		return 0
	}
	return s.proc.cmd.Process.Pid
}

var StderrTail = stderrTail
