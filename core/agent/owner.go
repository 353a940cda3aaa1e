package agent

import (
	"fmt"
	"os"
	"strings"
)

// A lease owner names the process holding a session, so another process that
// finds the session held can say who runs it (the workbench's attach): the
// form is "pid:PID/RANDOM host=HOST cmd=COMMAND", PID and HOST those of the
// agent's process, RANDOM one per Agent, COMMAND what ran it ("pincer run",
// "pincer" for the workbench; Config.OwnerCommand). Owners of other forms
// (older pincers, the browser's delete) are shown as they are.

// newOwner builds the lease owner of a new Agent.
func newOwner(command string) string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "?"
	}
	if command == "" {
		command = "pincer"
	}
	return fmt.Sprintf("pid:%d/%s host=%s cmd=%s", os.Getpid(), newID(), host, command)
}

// Owner returns the lease owner this agent takes sessions as.
func (a *Agent) Owner() string { return a.owner }

// OwnerInfo is what a lease owner says of its process.
type OwnerInfo struct {
	PID           int    // 0: not given
	Host, Command string // "": not given
}

// ParseOwner reads a lease owner of the form newOwner writes; any part that is
// missing stays zero.
func ParseOwner(owner string) OwnerInfo {
	var info OwnerInfo
	head, rest, _ := strings.Cut(owner, " ")
	if p, ok := strings.CutPrefix(head, "pid:"); ok {
		p, _, _ = strings.Cut(p, "/")
		_, _ = fmt.Sscanf(p, "%d", &info.PID)
	}
	if h, ok := strings.CutPrefix(rest, "host="); ok {
		info.Host, rest, _ = strings.Cut(h, " ")
	}
	if c, ok := strings.CutPrefix(rest, "cmd="); ok {
		info.Command = c
	}
	return info
}

// DescribeOwner is a lease owner for people: "pid 4242 (pincer run on box)",
// "pid 4242" without the rest, the owner as it is when it names no pid.
func DescribeOwner(owner string) string {
	info := ParseOwner(owner)
	if info.PID == 0 {
		return owner
	}
	s := fmt.Sprintf("pid %d", info.PID)
	switch {
	case info.Command != "" && info.Host != "":
		s += fmt.Sprintf(" (%s on %s)", info.Command, info.Host)
	case info.Command != "":
		s += " (" + info.Command + ")"
	}
	return s
}

// OwnerGone reports whether a lease owner names a process of this machine that
// no longer exists (its lease is stale: the next turn takes it over at once).
func OwnerGone(owner string) bool { return ownerDead(owner) }
