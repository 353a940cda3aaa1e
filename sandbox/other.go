//go:build !linux

package sandbox

import (
	"errors"
	"fmt"
	"io"
	"runtime"
)

// errNotLinux is why the OS sandbox is missing on other systems.
var errNotLinux = errors.New("the OS sandbox needs Linux (Landlock, namespaces), this is " + runtime.GOOS)

// HelperMain is `pincer sandbox-exec`; outside Linux it always fails.
func HelperMain(args []string, stderr io.Writer) int {
	return helperFail(stderr, ExitSetupFailed, errNotLinux)
}

// helperFail prints err and returns code.
func helperFail(w io.Writer, code int, err error) int {
	fmt.Fprintf(w, "pincer %s: %v\n", HelperCommand, err)
	return code
}

// Probe reports that nothing but the process group and the environment
// allowlist is enforced here.
func Probe() Report { return probeWith(nil) }

func probeWith([]string) Report {
	msg := errNotLinux.Error()
	return Report{LandlockError: msg, NetNamespaceError: msg, MountNamespaceError: msg}
}

// plan runs commands directly: no helper, no rlimits, no OS sandbox.
func (e *Executor) plan() (execPlan, error) {
	r := probeWith(nil)
	if err := readConfineCheck(e.Policy, r); err != nil {
		return execPlan{report: r}, err
	}
	if e.Policy.Enabled && e.Policy.RequireLandlock {
		return execPlan{report: r}, fmt.Errorf("sandbox: the policy requires Landlock: %v", errNotLinux)
	}
	r.Degraded = []string{"no OS sandbox and no rlimits: " + errNotLinux.Error()}
	return execPlan{report: r, direct: true}, nil
}
