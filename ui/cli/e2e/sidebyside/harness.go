package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// harness runs the measurements in alternating rounds.
type harness struct {
	o      options
	agents []*agent
	res    *results
	socket string
	tmux   *tmuxServer
	fake   *fakeModel
}

func (h *harness) run() error {
	var err error
	h.fake, err = startFake(h.o.deltas, h.o.gap, h.o.hold)
	if err != nil {
		return err
	}
	for _, m := range allMeasurements {
		if !h.o.want(m) {
			continue
		}
		fmt.Fprintf(os.Stderr, "== %s (%s)\n", m, time.Now().UTC().Format("15:04:05"))
		switch m {
		case "size":
			for _, a := range h.agents {
				h.res.add("binary_size_mib", a.Label, float64(binarySize(a.Bin))/(1<<20))
			}
		case "init":
			err = h.measureInit()
		case "sandbox":
			err = h.measureSandbox()
		case "frame":
			err = h.withTmux(h.measureFrame)
		case "continue":
			err = h.withTmux(h.measureContinue)
		case "oneshot":
			err = h.measureOneShot()
		case "daemon":
			err = h.measureDaemon()
		}
		if err != nil {
			return fmt.Errorf("%s: %w", m, err)
		}
	}
	return nil
}

func (h *harness) withTmux(f func() error) error {
	if h.tmux == nil {
		t, err := startTmux(h.socket, 120, 40)
		if err != nil {
			return err
		}
		h.tmux = t
	}
	return f()
}

// cleanup ends what the harness started: the tmux server (and the agent in
// its pane), the fake model, and the store daemons the pincers started for
// the harness's homes (found by their --store path, ended by pid).
func (h *harness) cleanup() {
	if h.tmux != nil {
		h.tmux.Kill()
	}
	if h.fake != nil {
		h.fake.Close()
	}
	for _, a := range h.agents {
		for _, p := range a.daemons("") {
			_ = syscall.Kill(p, syscall.SIGTERM)
			waitGone(p, 3*time.Second)
		}
	}
}

// rounds runs f for every agent in turn, once unmeasured (warm caches, a
// running store daemon) and then h.o.runs times, alternating the agents.
func (h *harness) rounds(f func(a *agent, measured bool) error) error {
	for r := 0; r <= h.o.runs; r++ {
		for _, a := range h.agents {
			if err := f(a, r > 0); err != nil {
				return fmt.Errorf("%s: %w", a.Label, err)
			}
		}
	}
	return nil
}

func (h *harness) measureInit() error {
	for r := 0; r < h.o.staticRuns; r++ {
		for _, a := range h.agents {
			d, cpu, err := initClock([]string{a.Bin, "--version"}, nil)
			if err != nil {
				return err
			}
			h.res.add("init_version_ms", a.Label, ms(d))
			h.res.add("version_cpu_ms", a.Label, ms(cpu))
			if a.Kind != kindPincer {
				continue
			}
			d, cpu, err = initClock([]string{a.Bin, "sandbox-exec", "--spec", "{}", "--", "true"}, nil)
			if err != nil {
				return err
			}
			h.res.add("init_helper_ms", a.Label, ms(d))
			h.res.add("helper_cpu_ms", a.Label, ms(cpu))
		}
	}
	return nil
}

func (h *harness) measureSandbox() error {
	ws := filepath.Join(h.o.work, "sandbox-ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return err
	}
	env := []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + ws, "LANG=C.UTF-8"}
	plainRecorded := false
	for r := 0; r <= h.o.staticRuns; r++ {
		for _, a := range h.agents {
			if a.Kind != kindPincer {
				continue
			}
			plain, plainCPU, err := wall([]string{"/bin/true"}, ws, env, nil)
			if err != nil {
				return err
			}
			bare, bareCPU, err := wall([]string{a.Bin, "sandbox-exec", "--spec", "{}", "--", "true"}, ws, env, nil)
			if err != nil {
				return err
			}
			full, fullCPU, err := wall([]string{a.Bin, "sandbox-exec", "--spec", sandboxSpec(ws), "--", "true"}, ws, env, sandboxPrepare)
			if err != nil {
				return err
			}
			if r == 0 {
				continue
			}
			h.res.add("plain_true_ms", a.Label, ms(plain))
			h.res.add("helper_true_ms", a.Label, ms(bare))
			h.res.add("sandboxed_true_ms", a.Label, ms(full))
			h.res.add("plain_true_cpu_ms", a.Label, ms(plainCPU))
			h.res.add("helper_true_cpu_ms", a.Label, ms(bareCPU))
			h.res.add("sandboxed_true_cpu_ms", a.Label, ms(fullCPU))
			plainRecorded = true
		}
	}
	if plainRecorded {
		h.res.note("sandbox: plain = fork+exec of /bin/true from Go; helper = `BIN sandbox-exec --spec {} -- true` (no namespaces); sandboxed = the helper with Landlock, dropped capabilities and mount+PID+network namespaces, as pincer's default policy outside a git repository")
	}
	return nil
}

// measureFrame: a fresh start to the complete first screen, then the idle
// screen's output for 2 s, then typed characters, then a paced stream.
func (h *harness) measureFrame() error {
	const scenario = "fresh"
	for _, a := range h.agents {
		if err := a.prepare(scenario, h.fake.URL); err != nil {
			return err
		}
	}
	return h.rounds(func(a *agent, measured bool) error {
		t := h.tmux
		defer t.Clear()
		start, err := t.Spawn(a.project(scenario), a.env(scenario), a.argv(h.fake.URL, false))
		if err != nil {
			return err
		}
		at, err := t.WaitFor(20*time.Second, a.ready)
		if err != nil {
			return fmt.Errorf("first frame: %w", err)
		}
		pid := t.PanePID()
		h.screen(a, "first-frame")
		sessionAt, err := t.WaitFor(20*time.Second, a.sessionReady)
		if err != nil {
			return fmt.Errorf("the session's id never showed: %w", err)
		}
		if measured {
			h.res.add("first_frame_ms", a.Label, ms(at.Sub(start)))
			if a.Kind == kindPincer {
				h.res.add("session_ready_ms", a.Label, ms(sessionAt.Sub(start)))
			}
			h.res.add("rss_idle_kib", a.Label, float64(peakRSS(pid)))
		}
		time.Sleep(1500 * time.Millisecond) // let start-up work (store, session, probes) finish
		pipe := filepath.Join(h.o.work, "pipe-"+a.Label)

		// Idle: what the agent writes while nothing happens.
		const idleFor = 3 * time.Second
		if err := t.PipeTo(pipe); err != nil {
			return err
		}
		cpu0 := treeCPU(pid)
		time.Sleep(idleFor)
		idleBytes, err := t.PipeStop(pipe)
		if err != nil {
			return err
		}
		cpu1 := treeCPU(pid)
		idleRate := float64(idleBytes) / idleFor.Seconds()
		if measured {
			h.res.add("idle_bytes_per_s", a.Label, idleRate)
			h.res.add("idle_cpu_ms_per_s", a.Label, ms(cpu1-cpu0)/idleFor.Seconds())
		}

		// Typing into the idle main screen, one character every 150 ms.
		if err := t.PipeTo(pipe); err != nil {
			return err
		}
		t0 := time.Now()
		if err := t.Type(strings.Repeat("x", h.o.typed), 150*time.Millisecond); err != nil {
			return err
		}
		time.Sleep(500 * time.Millisecond)
		typedBytes, err := t.PipeStop(pipe)
		if err != nil {
			return err
		}
		typingFor := time.Since(t0)
		h.screen(a, "typed")
		if measured {
			h.res.add("typing_bytes_per_char", a.Label, (float64(typedBytes)-idleRate*typingFor.Seconds())/float64(h.o.typed))
			h.res.add("typing_raw_bytes_per_char", a.Label, float64(typedBytes)/float64(h.o.typed))
		}

		// A paced stream: counters run from the first delta to the last.
		if err := t.Type(" "+streamWord, 20*time.Millisecond); err != nil {
			return err
		}
		if err := t.Key("Enter"); err != nil {
			return err
		}
		begin, err := h.awaitMark(false)
		if err != nil {
			return err
		}
		tmuxPID := t.ServerPID()
		daemons := a.daemons(scenario)
		sumCPU := func(pids []int) time.Duration {
			var s time.Duration
			for _, p := range pids {
				c, _ := procCPU(p)
				s += c
			}
			return s
		}
		if err := t.PipeTo(pipe); err != nil {
			return err
		}
		c0, tm0, d0 := treeCPU(pid), sumCPU([]int{tmuxPID}), sumCPU(daemons)
		close(begin.Ack)
		end, err := h.awaitMark(true)
		if err != nil {
			return err
		}
		close(end.Ack)
		time.Sleep(300 * time.Millisecond) // the last delta's frame
		streamBytes, err := t.PipeStop(pipe)
		if err != nil {
			return err
		}
		c1, tm1, d1 := treeCPU(pid), sumCPU([]int{tmuxPID}), sumCPU(daemons)
		last := strings.TrimSpace(deltaText(h.o.deltas - 1))
		if _, err := t.WaitFor(10*time.Second, func(s string) bool { return strings.Contains(s, last) }); err != nil {
			return fmt.Errorf("the streamed answer's last word %q never showed: %w", last, err)
		}
		h.screen(a, "streamed")
		if measured {
			h.res.add("stream_bytes_per_delta", a.Label, float64(streamBytes)/float64(h.o.deltas))
			h.res.add("stream_cpu_ms", a.Label, ms(c1-c0))
			h.res.add("stream_total_cpu_ms", a.Label, ms(c1-c0+d1-d0))
			h.res.add("stream_tmux_cpu_ms", a.Label, ms(tm1-tm0))
			h.res.add("rss_after_stream_kib", a.Label, float64(peakRSS(pid)))
		}
		return nil
	})
}

// awaitMark waits for the fake model's streamMark.
func (h *harness) awaitMark(end bool) (streamMark, error) {
	select {
	case m := <-h.fake.Marks:
		if m.End != end {
			close(m.Ack)
			return m, fmt.Errorf("stream mark out of order (end=%v)", m.End)
		}
		return m, nil
	case <-time.After(30 * time.Second):
		return streamMark{}, fmt.Errorf("the paced stream did not start within 30 s (was the prompt sent? the pane shows:\n%s)", h.tmux.Capture())
	}
}

// measureContinue: --continue on a finished session of each size, to the
// frame showing its last line.
func (h *harness) measureContinue() error {
	last := map[string]string{}
	for _, n := range h.o.sizes {
		for _, a := range h.agents {
			sc := fmt.Sprintf("continue-%d", n)
			if err := a.prepare(sc, h.fake.URL); err != nil {
				return err
			}
			l, err := a.makeSession(sc, n, h.o.longsess, h.fake.URL)
			if err != nil {
				return fmt.Errorf("%s: a %d-message session: %w", a.Label, n, err)
			}
			last[a.Label+sc] = l
		}
	}
	return h.rounds(func(a *agent, measured bool) error {
		for _, n := range h.o.sizes {
			sc := fmt.Sprintf("continue-%d", n)
			want := last[a.Label+sc]
			start, err := h.tmux.Spawn(a.project(sc), a.env(sc), a.argv(h.fake.URL, true))
			if err != nil {
				return err
			}
			at, err := h.tmux.WaitFor(60*time.Second, func(s string) bool { return strings.Contains(s, want) })
			h.screen(a, sc)
			pid := h.tmux.PanePID()
			rss := peakRSS(pid)
			h.tmux.Clear()
			if err != nil {
				return fmt.Errorf("--continue %d: %w", n, err)
			}
			if measured {
				h.res.add(fmt.Sprintf("continue_%d_ms", n), a.Label, ms(at.Sub(start)))
				h.res.add(fmt.Sprintf("continue_%d_rss_kib", n), a.Label, float64(rss))
			}
		}
		return nil
	})
}

func (h *harness) measureOneShot() error {
	const scenario = "oneshot"
	for _, a := range h.agents {
		if err := a.prepare(scenario, h.fake.URL); err != nil {
			return err
		}
	}
	return h.rounds(func(a *agent, measured bool) error {
		d, err := a.oneShot(scenario, h.fake.URL, "hello")
		if err != nil {
			return err
		}
		if measured {
			h.res.add("oneshot_run_ms", a.Label, ms(d))
		}
		return nil
	})
}

// measureDaemon: every pincer's store daemon, started by a `pincer run`
// and left idle, watched for daemonFor (all at once: idle processes do not
// disturb each other), twice.
func (h *harness) measureDaemon() error {
	const scenario = "daemon"
	var pincers []*agent
	for _, a := range h.agents {
		if a.Kind == kindPincer {
			pincers = append(pincers, a)
		}
	}
	for round := 0; round < 2; round++ {
		pids := map[string]int{}
		for _, a := range pincers {
			if err := a.prepare(scenario, h.fake.URL); err != nil {
				return err
			}
			// A one-shot run opens the store through the daemon, starting it.
			if _, err := a.oneShot(scenario, h.fake.URL, "hello"); err != nil {
				return err
			}
			ds := a.daemons(scenario)
			if len(ds) != 1 {
				return fmt.Errorf("%s: want one store daemon for the harness's homes, found %v", a.Label, ds)
			}
			pids[a.Label] = ds[0]
		}
		time.Sleep(3 * time.Second)
		type sample struct {
			cpu time.Duration
			cs  int64
		}
		s0 := map[string]sample{}
		for l, p := range pids {
			c, _ := procCPU(p)
			s0[l] = sample{c, ctxtSwitches(p)}
		}
		t0 := time.Now()
		time.Sleep(h.o.daemonFor)
		el := time.Since(t0).Seconds()
		var wg sync.WaitGroup
		for l, p := range pids {
			c, err := procCPU(p)
			if err != nil {
				return fmt.Errorf("%s: the store daemon ended while idle: %v", l, err)
			}
			h.res.add("daemon_idle_cpu_ms_per_s", l, ms(c-s0[l].cpu)/el)
			h.res.add("daemon_idle_wakeups_per_s", l, float64(ctxtSwitches(p)-s0[l].cs)/el)
			wg.Add(1)
			go func(p int) {
				defer wg.Done()
				_ = syscall.Kill(p, syscall.SIGTERM)
				waitGone(p, 3*time.Second)
			}(p)
		}
		wg.Wait()
	}
	h.res.note("daemon idle: CPU from /proc/PID/stat (10 ms ticks), wake-ups = voluntary+involuntary context switches summed over /proc/PID/task/*/status, over %v, twice", h.o.daemonFor)
	return nil
}

// screen saves the pane's text as DIR/LABEL-WHAT.txt when -screens is set
// (the last round's overwrites the earlier ones).
func (h *harness) screen(a *agent, what string) {
	if h.o.screens == "" {
		return
	}
	_ = os.MkdirAll(h.o.screens, 0o755)
	_ = os.WriteFile(filepath.Join(h.o.screens, a.Label+"-"+what+".txt"), []byte(h.tmux.Capture()), 0o644)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
