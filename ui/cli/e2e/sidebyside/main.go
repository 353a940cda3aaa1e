// Command sidebyside is issue 19's side-by-side benchmark: pincer's previous
// release ("base"), pincer as built now ("new") and Crush ("crush"), run in
// the same minutes on the same machine against the same scripted fake model
// (an OpenAI-compatible endpoint speaking core/provider/openai/openaitest's
// wire format), each inside the same tmux pane of 120×40 on a private tmux
// socket, in alternating rounds (base, new, crush, base, new, crush, ...),
// reported as medians and ratios. Machines here differ by 2× from one session
// to the next, so only the ratios of one run mean anything.
//
// Usage (see docs/BENCHMARKS.md, "Issue 19", and `make bench-compare`):
//
//	go run ./ui/cli/e2e/sidebyside -base /tmp/pincer-base -new ./pincer -crush /path/to/crush \
//	    -longsession /tmp/longsession [-runs 5] [-sizes 2000,10000] [-only frame,continue,...] [-md out.md] [-json out.json]
//
// It needs tmux and, for Crush's long sessions, the sqlite3 command. Any of
// -base, -new, -crush may be left out; the measurements of an agent that is
// not given are skipped.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

type options struct {
	runs       int
	sizes      []int
	only       map[string]bool
	deltas     int
	gap, hold  time.Duration
	typed      int
	daemonFor  time.Duration
	staticRuns int
	work       string
	longsess   string
	screens    string
}

func (o options) want(s string) bool { return len(o.only) == 0 || o.only[s] }

// measurements, in the order they run.
var allMeasurements = []string{"size", "init", "sandbox", "frame", "continue", "oneshot", "daemon"}

func main() {
	base := flag.String("base", "", "pincer binary of the previous release (the baseline)")
	newBin := flag.String("new", "", "pincer binary under test")
	crush := flag.String("crush", "", "Crush binary")
	longsess := flag.String("longsession", "", "pincer's long-session generator (go build ./core/app/internal/longsession), needed by -only continue")
	runs := flag.Int("runs", 5, "measured rounds of each interactive measurement (after one warm-up round)")
	staticRuns := flag.Int("static-runs", 20, "rounds of the process measurements (init, sandbox)")
	sizes := flag.String("sizes", "2000,10000", "session sizes (messages) for --continue")
	only := flag.String("only", "", "comma-separated subset of "+strings.Join(allMeasurements, ","))
	deltas := flag.Int("deltas", 100, "deltas in the paced stream")
	gap := flag.Duration("gap", 50*time.Millisecond, "time between two deltas of the paced stream")
	typed := flag.Int("typed", 20, "characters typed into the idle main screen")
	daemonFor := flag.Duration("daemon-for", 30*time.Second, "how long the idle store daemon is watched")
	socket := flag.String("socket", "bench19", "tmux socket name (tmux -L)")
	work := flag.String("work", "", "work directory (default: a new temporary one, removed at the end)")
	screens := flag.String("screens", "", "save the pane's text at each measured point (first frame, typed, streamed, continued) into this directory")
	md := flag.String("md", "", "write the markdown tables here too")
	js := flag.String("json", "", "write every sample and the goals as JSON here")
	flag.Parse()

	o := options{runs: *runs, deltas: *deltas, gap: *gap, hold: 800 * time.Millisecond, typed: *typed,
		daemonFor: *daemonFor, staticRuns: *staticRuns, longsess: *longsess, screens: *screens}
	for _, s := range strings.Split(*sizes, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && n > 0 {
			o.sizes = append(o.sizes, n)
		}
	}
	if *only != "" {
		o.only = map[string]bool{}
		for _, s := range strings.Split(*only, ",") {
			o.only[strings.TrimSpace(s)] = true
		}
	}
	var agents []*agent
	for _, a := range []struct{ label, kind, bin string }{{"base", kindPincer, *base}, {"new", kindPincer, *newBin}, {"crush", kindCrush, *crush}} {
		if a.bin == "" {
			continue
		}
		abs, err := filepath.Abs(a.bin)
		if err == nil {
			_, err = os.Stat(abs)
		}
		if err != nil {
			fatalf("-%s %s: %v", a.label, a.bin, err)
		}
		agents = append(agents, &agent{Label: a.label, Kind: a.kind, Bin: abs})
	}
	if len(agents) == 0 {
		fatalf("give at least one of -base, -new, -crush")
	}
	if o.want("continue") && o.longsess == "" && hasKind(agents, kindPincer) {
		fatalf("-longsession is needed for the --continue measurement (or leave it out with -only)")
	}
	removeWork := false
	if *work == "" {
		d, err := os.MkdirTemp("", "sidebyside-")
		if err != nil {
			fatalf("%v", err)
		}
		*work, removeWork = d, true
	}
	o.work, _ = filepath.Abs(*work)
	for _, a := range agents {
		a.dir = filepath.Join(o.work, a.Label)
	}

	res := newResults()
	res.note("started %s; %d cores; load %s", time.Now().UTC().Format(time.RFC3339), numCPU(), loadAvg())
	h := &harness{o: o, agents: agents, res: res, socket: *socket}
	err := h.run()
	h.cleanup()
	if removeWork && err == nil {
		_ = os.RemoveAll(o.work)
	}
	res.note("ended %s; load %s", time.Now().UTC().Format(time.RFC3339), loadAvg())
	labels := make([]string, len(agents))
	for i, a := range agents {
		labels[i] = a.Label
	}
	var out strings.Builder
	res.writeTable(&out, labels)
	gs := res.goals(o.sizes)
	if hasLabel(agents, "base") && hasLabel(agents, "new") {
		out.WriteString("\n")
		writeGoals(&out, gs)
	}
	out.WriteString("\n")
	for _, n := range res.Notes {
		out.WriteString("- " + n + "\n")
	}
	fmt.Print(out.String())
	if *md != "" {
		_ = os.WriteFile(*md, []byte(out.String()), 0o644)
	}
	if *js != "" {
		if err := res.writeJSON(*js, gs); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	if err != nil {
		fatalf("%v", err)
	}
}

func hasKind(as []*agent, kind string) bool {
	for _, a := range as {
		if a.Kind == kind {
			return true
		}
	}
	return false
}

func hasLabel(as []*agent, label string) bool {
	for _, a := range as {
		if a.Label == label {
			return true
		}
	}
	return false
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "sidebyside: "+format+"\n", args...)
	os.Exit(1)
}

func numCPU() int {
	b, _ := os.ReadFile("/proc/cpuinfo")
	return strings.Count(string(b), "\nprocessor") + boolInt(strings.HasPrefix(string(b), "processor"))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func loadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
