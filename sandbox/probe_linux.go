package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// probeTimeout bounds one run of the helper in probe mode.
const probeTimeout = 10 * time.Second

// Probe reports what this machine can enforce for commands run through the
// default helper: the Landlock ABI (or why there is none), whether network and
// mount namespaces can be created (by starting the helper in them once), and
// rlimits. The answer is computed once per process. It is what `pincer doctor`
// shows.
func Probe() Report {
	return probeWith(DefaultHelper())
}

// probes caches one probe per helper command line.
var probes sync.Map // string -> *probeEntry

type probeEntry struct {
	once sync.Once
	r    Report
}

// probeWith is Probe for a given helper.
func probeWith(helper []string) Report {
	v, _ := probes.LoadOrStore(strings.Join(helper, "\x00"), &probeEntry{})
	pe := v.(*probeEntry)
	pe.once.Do(func() { pe.r = probeNow(helper) })
	r := pe.r
	r.Degraded = nil
	return r
}

// errNoHelperOutput is a probe whose helper printed nothing usable.
var errNoHelperOutput = errors.New("the helper gave no answer")

// probeNow does the probing.
func probeNow(helper []string) Report {
	r := Report{Rlimits: true}
	abi, err := landlockABI()
	r.LandlockABI = abi
	if err != nil {
		r.LandlockError = err.Error()
	}
	if err := checkHelper(helper); err != nil {
		r.MountNamespaceError, r.NetNamespaceError = err.Error(), err.Error()
		return r
	}
	// Root creates namespaces directly; an unprivileged pincer (or root in a
	// container without CAP_SYS_ADMIN) through a user namespace.
	root := os.Geteuid() == 0
	var v verdicts
	if root {
		v = probeNamespaces(helper, false)
	}
	if !root || !v.allOK() {
		u := probeNamespaces(helper, true)
		if !root || u.allOK() {
			v, r.UserNamespace = u, true
		}
	}
	r.MountNamespace = v.mount == "ok"
	if !r.MountNamespace {
		r.MountNamespaceError = v.mount
	}
	r.NetNamespace = v.net == "ok"
	if !r.NetNamespace {
		r.NetNamespaceError = v.net
	}
	r.PIDNamespace = v.pid == "ok"
	if !r.PIDNamespace {
		r.PIDNamespaceError = v.pid
	}
	r.NamespacePidMax = v.pidMax == "ok"
	return r
}

// verdicts are a probe's answers: "ok" or the reason, per namespace.
type verdicts struct{ mount, net, pid, pidMax string }

func (v verdicts) allOK() bool { return v.mount == "ok" && v.net == "ok" && v.pid == "ok" }

// probeNamespaces returns the verdicts on mount, network and PID namespaces:
// all in one start of the helper, and only when that fails, each on its own to
// tell which one is missing.
func probeNamespaces(helper []string, userNS bool) verdicts {
	all := uintptr(syscall.CLONE_NEWNS | syscall.CLONE_NEWNET | syscall.CLONE_NEWPID)
	v, err := runProbe(helper, all, userNS)
	if err != nil || !v.allOK() {
		m, _ := runProbe(helper, syscall.CLONE_NEWNS, userNS)
		n, _ := runProbe(helper, syscall.CLONE_NEWNET, userNS)
		p, _ := runProbe(helper, syscall.CLONE_NEWNS|syscall.CLONE_NEWPID, userNS)
		if p.pid != "ok" {
			p, _ = runProbe(helper, syscall.CLONE_NEWPID, userNS)
		}
		v = verdicts{mount: m.mount, net: n.net, pid: p.pid, pidMax: p.pidMax}
	}
	return v
}

// runProbe starts the helper in probe mode in the namespaces of flags and
// returns its verdict on each ("ok" or the reason), or an error when it could
// not even start.
func runProbe(helper []string, flags uintptr, userNS bool) (verdicts, error) {
	spec := helperSpec{Probe: true, MountNS: flags&syscall.CLONE_NEWNS != 0,
		NetNS: flags&syscall.CLONE_NEWNET != 0, PidNS: flags&syscall.CLONE_NEWPID != 0}
	tail, err := helperArgs(spec, nil)
	if err != nil {
		return verdicts{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, helper[0], append(append([]string{}, helper[1:]...), tail...)...)
	cmd.Env = CommandEnv()
	cmd.Env = append(cmd.Env, raceHelperEnv...) // race builds only: race_env.go
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	applyNamespaces(cmd.SysProcAttr, flags, userNS)
	out, runErr := cmd.CombinedOutput()
	if cmd.ProcessState == nil {
		reason := fmt.Sprintf("cannot create it: %v", runErr)
		return verdicts{reason, reason, reason, reason}, runErr
	}
	none := errNoHelperOutput.Error()
	v := verdicts{none, none, none, none}
	for _, line := range strings.Split(string(out), "\n") {
		for prefix, dst := range map[string]*string{"mount: ": &v.mount, "net: ": &v.net, "pid: ": &v.pid, "pidmax: ": &v.pidMax} {
			if val, ok := strings.CutPrefix(line, prefix); ok {
				*dst = val
			}
		}
	}
	if runErr != nil && v.mount == none && v.net == none && v.pid == none {
		msg := fmt.Sprintf("the helper failed: %v: %s", runErr, strings.TrimSpace(string(out)))
		v = verdicts{msg, msg, msg, msg}
	}
	return v, nil
}
