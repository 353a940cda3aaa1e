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
	mountRes, netRes := "", ""
	if root {
		mountRes, netRes = probeNamespaces(helper, false)
	}
	if !root || mountRes != "ok" || netRes != "ok" {
		m, n := probeNamespaces(helper, true)
		if !root || (m == "ok" && n == "ok") {
			mountRes, netRes, r.UserNamespace = m, n, true
		}
	}
	r.MountNamespace = mountRes == "ok"
	if !r.MountNamespace {
		r.MountNamespaceError = mountRes
	}
	r.NetNamespace = netRes == "ok"
	if !r.NetNamespace {
		r.NetNamespaceError = netRes
	}
	return r
}

// probeNamespaces returns the verdicts ("ok" or the reason) on mount and
// network namespaces: both in one start of the helper, and only when that
// fails, each on its own to tell which one is missing.
func probeNamespaces(helper []string, userNS bool) (mount, net string) {
	mount, net, err := runProbe(helper, syscall.CLONE_NEWNS|syscall.CLONE_NEWNET, userNS)
	if err != nil {
		mount, _, _ = runProbe(helper, syscall.CLONE_NEWNS, userNS)
		_, net, _ = runProbe(helper, syscall.CLONE_NEWNET, userNS)
	}
	return mount, net
}

// runProbe starts the helper in probe mode in the namespaces of flags and
// returns its verdict on each ("ok" or the reason), or an error when it could
// not even start.
func runProbe(helper []string, flags uintptr, userNS bool) (mount, net string, err error) {
	spec := helperSpec{Probe: true, MountNS: flags&syscall.CLONE_NEWNS != 0, NetNS: flags&syscall.CLONE_NEWNET != 0}
	tail, err := helperArgs(spec, nil)
	if err != nil {
		return "", "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, helper[0], append(append([]string{}, helper[1:]...), tail...)...)
	cmd.Env = CommandEnv()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	applyNamespaces(cmd.SysProcAttr, flags, userNS)
	out, runErr := cmd.CombinedOutput()
	if cmd.ProcessState == nil {
		reason := fmt.Sprintf("cannot create it: %v", runErr)
		return reason, reason, runErr
	}
	mount, net = errNoHelperOutput.Error(), errNoHelperOutput.Error()
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "mount: "); ok {
			mount = v
		}
		if v, ok := strings.CutPrefix(line, "net: "); ok {
			net = v
		}
	}
	if runErr != nil && mount == errNoHelperOutput.Error() {
		mount = fmt.Sprintf("the helper failed: %v: %s", runErr, strings.TrimSpace(string(out)))
		net = mount
	}
	return mount, net, nil
}
