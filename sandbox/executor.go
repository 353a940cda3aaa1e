package sandbox

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"sync"
)

// Executor runs shell commands under a Policy. Every command goes through Run
// (its own session and process group, stdin from /dev/null, the environment
// allowlist, the timeout that kills the whole group); with a Policy the command
// is started through the helper (`pincer sandbox-exec`), which applies the
// rlimits and — when Policy.Enabled, on Linux — Landlock, read-only protected
// paths and the network namespace before it executes the command.
//
// An Executor is cheap: what the machine can enforce is probed once per
// process and helper, and the toolchain caches are located once per process.
// It is safe for concurrent use.
type Executor struct {
	// Policy says how commands are confined.
	Policy Policy
	// Workspace gives the writable roots (its root and added dirs) and the
	// roots that ReadOnlyInWorkspace is relative to. It may be nil.
	Workspace *Workspace
	// Helper is the program and leading arguments that run the helper side
	// (HelperMain); nil means DefaultHelper(). Tests point it at their own
	// binary, which calls RunHelperIfRequested in TestMain.
	Helper []string

	// Warm keeps a pre-started helper waiting for the next command of the
	// same policy (see runWarm): a command then starts in about the time of
	// a plain fork and exec instead of the helper's start-up and
	// confinement. Each helper runs one command, so every command still
	// gets namespaces of its own; Start and StartPiped always use a classic
	// helper.
	Warm bool

	// probe replaces probeWith in tests (to pretend a feature is missing).
	probe func(helper []string) Report
}

// execPlan is how one Executor runs its commands: the helper's spec, what the
// machine gives (with degradations), and the namespace setup of the helper.
type execPlan struct {
	spec    helperSpec
	report  Report
	prepare func(*exec.Cmd)
	// direct runs commands without the helper.
	direct bool
	// guard checks the protected paths before and after each command (see
	// quarantine).
	guard bool
}

// helper returns the helper command line in use.
func (e *Executor) helper() []string {
	if len(e.Helper) > 0 {
		return e.Helper
	}
	return DefaultHelper()
}

// Report returns what this machine can enforce, with Degraded listing what
// e.Policy asked for and does not get. It fails only when the policy cannot be
// run at all (RequireLandlock without Landlock).
func (e *Executor) Report() (Report, error) {
	p, err := e.plan()
	return p.report, err
}

// Run runs c under the policy and waits for it, as the package-level Run does
// (c.Path and c.Args are the command; c.Dir, c.Env, c.Timeout and the rest keep
// their meaning). The first result in this process that runs with less
// confinement than the policy asked for carries a Notice saying so. It returns
// an error without running anything when the policy cannot be met
// (RequireLandlock) or the helper cannot be used.
func (e *Executor) Run(ctx context.Context, c Command) (Result, error) {
	c.EnvAllow = append(slices.Clone(e.Policy.EnvAllow), c.EnvAllow...)
	// A waiting helper gets the request before the plan, and its "go" only
	// when the plan gives the key it was confined for (sendEarly, runWarm);
	// killed, with nothing run, on every other way out.
	var early *warmCall
	if e.Warm || warmAll {
		early = e.sendEarly(ctx, c)
	}
	defer early.abort()
	p, err := e.plan()
	if err != nil {
		return Result{ExitCode: -1}, err
	}
	if p.direct {
		res, err := Run(ctx, c)
		res.Notice = announce(p.report.Degraded)
		return res, err
	}
	wrapped, err := e.wrap(p, c)
	if err != nil {
		return Result{ExitCode: -1}, err
	}
	var roots []string
	var before guardState
	if p.guard && e.Workspace != nil {
		roots = e.Workspace.Roots()
		before = snapshotProtected(roots, e.Policy.readOnly())
	}
	res, ran := Result{}, false
	if e.Warm || warmAll {
		res, ran = e.runWarm(ctx, p, c, wrapped, early)
	}
	if !ran {
		res, err = Run(ctx, wrapped)
	}
	var notes []string
	if n := announce(p.report.Degraded); n != "" {
		notes = append(notes, n)
	}
	if p.guard && e.Workspace != nil {
		qdir := e.Policy.QuarantineDir
		if qdir == "" {
			qdir = DefaultQuarantineDir()
		}
		if n := quarantine(before, qdir); n != "" {
			notes = append(notes, n)
		}
	}
	if e.Policy.Enabled && !e.Policy.Network && err == nil {
		if h := NetworkHintFor(strings.Join(c.Args, " "), res.Output, res.ExitCode); h != "" {
			notes = append(notes, h)
		}
	}
	res.Notice = strings.Join(notes, "\n")
	return res, err
}

// wrap returns c as the helper's command line under plan p: the helper
// program with the spec, then c's program and arguments.
func (e *Executor) wrap(p execPlan, c Command) (Command, error) {
	argv := append([]string{c.Path}, c.Args...)
	spec, err := e.commandSpec(p, c)
	if err != nil {
		return Command{}, err
	}
	tail, err := helperArgs(spec, argv)
	if err != nil {
		return Command{}, err
	}
	helper := e.helper()
	wrapped := c
	wrapped.Path = helper[0]
	wrapped.Args = append(slices.Clone(helper[1:]), tail...)
	wrapped.prepare = p.prepare
	return wrapped, nil
}

// commandSpec is the helper's spec for c under plan p: the plan's with c's
// process bound when tighter. It fails with errProcessLimit when c requires
// a process bound that cannot hold here.
func (e *Executor) commandSpec(p execPlan, c Command) (helperSpec, error) {
	spec := p.spec
	if c.MaxProcesses > 0 && (spec.MaxProcesses == 0 || c.MaxProcesses < spec.MaxProcesses) {
		spec.MaxProcesses = c.MaxProcesses
	}
	spec.RequireProcessLimit = c.RequireProcessLimit
	if c.RequireProcessLimit && !p.processLimitHolds() {
		return helperSpec{}, errProcessLimit
	}
	return spec, nil
}

// announced holds the degradation messages already carried by a Notice.
var (
	announcedMu sync.Mutex
	announced   = map[string]bool{}
)

// announce returns the messages of degraded not announced before in this
// process, joined into one notice, and marks them announced.
func announce(degraded []string) string {
	if len(degraded) == 0 {
		return ""
	}
	announcedMu.Lock()
	defer announcedMu.Unlock()
	var fresh []string
	for _, d := range degraded {
		if !announced[d] {
			announced[d] = true
			fresh = append(fresh, d)
		}
	}
	if len(fresh) == 0 {
		return ""
	}
	return "sandbox degraded: " + strings.Join(fresh, "; ")
}
