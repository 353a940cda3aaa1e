package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// clockTicks is USER_HZ, the unit of utime/stime in /proc/PID/stat (100 on
// every Linux the project runs on).
const clockTicks = 100

// procCPU is a process's user+system CPU time (all its threads, including
// ended ones), from /proc/PID/stat, with 10 ms resolution.
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("bad /proc/%d/stat", pid)
	}
	f := strings.Fields(s[i+1:])
	// f[0] is field 3 (state); utime is field 14, stime 15.
	if len(f) < 13 {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / clockTicks, nil
}

// treeCPU is procCPU summed over pid and its live descendants.
func treeCPU(pid int) time.Duration {
	var sum time.Duration
	for _, p := range append([]int{pid}, descendants(pid)...) {
		if c, err := procCPU(p); err == nil {
			sum += c
		}
	}
	return sum
}

// descendants lists the live children of pid, recursively.
func descendants(pid int) []int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp := statusInt(p, "PPid:"); pp > 0 {
			children[int(pp)] = append(children[int(pp)], p)
		}
	}
	var out []int
	var walk func(int)
	walk = func(p int) {
		for _, c := range children[p] {
			out = append(out, c)
			walk(c)
		}
	}
	walk(pid)
	return out
}

// statusInt reads the first number of a /proc/PID/status line ("VmHWM:",
// "PPid:"), -1 when missing.
func statusInt(pid int, key string) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), key); ok {
			fields := strings.Fields(rest)
			if len(fields) > 0 {
				n, _ := strconv.ParseInt(fields[0], 10, 64)
				return n
			}
		}
	}
	return -1
}

// peakRSS is the process's peak resident set (VmHWM) in KiB.
func peakRSS(pid int) int64 { return statusInt(pid, "VmHWM:") }

// ctxtSwitches sums voluntary and involuntary context switches over all the
// live threads of pid (/proc/PID/task/*/status): each voluntary one is the
// thread sleeping and later waking.
func ctxtSwitches(pid int) int64 {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*", pid))
	var sum int64
	for _, t := range tasks {
		tid, err := strconv.Atoi(filepath.Base(t))
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/status", pid, tid))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			for _, k := range []string{"voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:"} {
				if rest, ok := strings.CutPrefix(line, k); ok {
					n, _ := strconv.ParseInt(strings.TrimSpace(rest), 10, 64)
					sum += n
				}
			}
		}
	}
	return sum
}

// findProcess returns the pids whose command line has every one of words
// among its arguments (matched exactly) and whose executable is exe.
func findProcess(exe string, words ...string) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
		if err != nil || len(b) == 0 {
			continue
		}
		args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
		if args[0] != exe {
			continue
		}
		ok := true
		for _, w := range words {
			found := false
			for _, a := range args[1:] {
				if a == w {
					found = true
					break
				}
			}
			ok = ok && found
		}
		if ok && alive(p) {
			out = append(out, p)
		}
	}
	return out
}
