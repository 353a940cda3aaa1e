package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"syscall"
	"time"
)

// initClock is the package initialisation of one process: the sum of the
// "N ms clock" figures GODEBUG=inittrace=1 prints (one line per package).
// It also returns the process's whole CPU time (user+system, from rusage),
// which, unlike the clock figures, does not grow when the machine is busy.
func initClock(argv []string, env []string) (time.Duration, time.Duration, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(append(os.Environ(), env...), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	_ = cmd.Run() // the exit code does not matter: init ran before main
	cpu := processCPU(cmd)
	var sum float64
	n := 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		if m := inittraceLine.FindStringSubmatch(sc.Text()); m != nil {
			v, _ := strconv.ParseFloat(m[1], 64)
			sum += v
			n++
		}
	}
	if n == 0 {
		return 0, 0, fmt.Errorf("%v printed no inittrace lines: %s", argv, stderr.String())
	}
	return time.Duration(sum * float64(time.Millisecond)), cpu, nil
}

// inittraceLine matches "init PKG @0.52 ms, 0.10 ms clock, 1234 bytes, 5 allocs".
var inittraceLine = regexp.MustCompile(`^init \S+ @[0-9.]+ ms, ([0-9.]+) ms clock`)

// processCPU is an ended command's user+system CPU time.
func processCPU(cmd *exec.Cmd) time.Duration {
	if cmd.ProcessState == nil {
		return 0
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// wall runs argv to its end and returns its wall time and CPU time
// (user+system of it and its waited-for children); prepare may set
// SysProcAttr.
func wall(argv []string, dir string, env []string, prepare func(*exec.Cmd)) (time.Duration, time.Duration, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if prepare != nil {
		prepare(cmd)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		return d, 0, fmt.Errorf("%v: %v: %s", argv, err, out.String())
	}
	return d, processCPU(cmd), nil
}

// sandboxSpec is the helper's --spec for `true` under pincer's default
// sandbox in workspace ws, as the Executor writes it outside a git
// repository on a machine with every namespace (sandbox/executor_linux.go):
// Landlock with the workspace writable, capabilities dropped, and mount, PID
// and network namespaces, which the caller must create (cloneFlags).
func sandboxSpec(ws string) string {
	return fmt.Sprintf(`{"landlock":true,"dropCaps":true,"trees":[{"path":%q,"mount":true}],"mountNS":true,"netNS":true,"pidNS":true}`, ws)
}

// sandboxPrepare gives the helper the namespaces the full spec says it runs in.
func sandboxPrepare(cmd *exec.Cmd) {
	cmd.SysProcAttr.Cloneflags = syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWNET
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// binarySize is the file's size in bytes.
func binarySize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return -1
	}
	return st.Size()
}
