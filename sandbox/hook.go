package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
)

// helperHookInstalled is set by RunHelperIfRequested: this binary answers
// `HelperCommand ...` itself.
var helperHookInstalled atomic.Bool

// RunHelperIfRequested turns this process into the sandbox helper when it was
// started as `PROGRAM sandbox-exec ...`: it runs HelperMain and exits. Otherwise
// it returns at once. Test binaries that run sandboxed commands call it first
// thing in TestMain, so that the default helper (the running binary itself)
// works in tests too; pincer's main routes the subcommand directly.
func RunHelperIfRequested() {
	helperHookInstalled.Store(true)
	if len(os.Args) > 1 && os.Args[1] == HelperCommand {
		os.Exit(HelperMain(os.Args[2:], os.Stderr))
	}
}

// DefaultHelper returns the helper command line: the running binary (through
// /proc/self/exe, which still works when the file was replaced by an upgrade)
// and HelperCommand.
func DefaultHelper() []string {
	return []string{"/proc/self/exe", HelperCommand}
}

// checkHelper refuses to re-execute a Go test binary as the helper when it does
// not answer the helper subcommand: it would run its tests again instead,
// recursively.
func checkHelper(helper []string) error {
	if len(helper) == 0 {
		return fmt.Errorf("empty sandbox helper command")
	}
	self := helper[0] == "/proc/self/exe"
	if exe, err := os.Executable(); err == nil && helper[0] == exe {
		self = true
	}
	if self && strings.HasSuffix(filepath.Base(os.Args[0]), ".test") && !helperHookInstalled.Load() {
		return fmt.Errorf("this test binary cannot be the sandbox helper: call sandbox.RunHelperIfRequested() first in TestMain")
	}
	return nil
}
