package lsp

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// Caps of the diagnostics text: problems per file, problems in all, and the
// length of one message (runes; longer ones are cut with "…").
const (
	maxPerFile   = 10
	maxTotal     = 30
	maxMessageRn = 300
)

// severityName is the word shown for an LSP severity.
func severityName(s int) string {
	switch s {
	case 2:
		return "warning"
	case 3:
		return "info"
	case 4:
		return "hint"
	}
	return "error"
}

// Text is the diagnostics the model is shown at its next call for session:
// the errors and warnings the servers currently report for the files the
// session changed this turn, one "file:line:col: severity: message" line
// each (file relative to the root), errors first, capped (maxPerFile,
// maxTotal: "... and N more"). "" when there are none (fixed problems are
// gone as soon as the server says so).
func (m *Manager) Text(session string) string {
	m.mu.Lock()
	var paths []string
	for p := range m.changed[session] {
		paths = append(paths, p)
	}
	clients := map[string]*client{}
	for k, v := range m.clients {
		clients[k] = v
	}
	m.mu.Unlock()
	sort.Strings(paths)
	var lines []string
	more := 0
	for _, p := range paths {
		srv, _, ok := serverFor(m.opts.Servers, p)
		if !ok || clients[srv.Name] == nil {
			continue
		}
		var ds []Diagnostic
		for _, d := range clients[srv.Name].diagnostics(p) {
			if d.Severity <= 2 {
				ds = append(ds, d)
			}
		}
		sort.SliceStable(ds, func(i, j int) bool {
			if sev(ds[i]) != sev(ds[j]) {
				return sev(ds[i]) < sev(ds[j])
			}
			if ds[i].Line != ds[j].Line {
				return ds[i].Line < ds[j].Line
			}
			return ds[i].Col < ds[j].Col
		})
		shown := filepath.ToSlash(p)
		if rel, err := filepath.Rel(m.opts.Root, p); err == nil {
			shown = filepath.ToSlash(rel)
		}
		for i, d := range ds {
			if i >= maxPerFile || len(lines) >= maxTotal {
				more += len(ds) - i
				break
			}
			lines = append(lines, fmt.Sprintf("%s:%d:%d: %s: %s", shown, d.Line, d.Col, severityName(d.Severity), oneLine(d)))
		}
	}
	if len(lines) == 0 {
		return ""
	}
	if more > 0 {
		lines = append(lines, fmt.Sprintf("... and %d more", more))
	}
	return "The language servers report these problems in the files you changed this turn (fix them or say why not):\n" +
		strings.Join(lines, "\n")
}

// sev orders an unset severity as an error.
func sev(d Diagnostic) int {
	if d.Severity == 0 {
		return 1
	}
	return d.Severity
}

// oneLine is d's message on one line, cut to maxMessageRn runes, with its
// source in brackets.
func oneLine(d Diagnostic) string {
	msg := strings.Join(strings.Fields(d.Message), " ")
	if r := []rune(msg); len(r) > maxMessageRn {
		msg = string(r[:maxMessageRn]) + "…"
	}
	if d.Source != "" {
		msg += " [" + d.Source + "]"
	}
	return msg
}
