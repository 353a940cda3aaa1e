package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"
)

// results holds every sample: metric → agent label → values, in the unit
// the metric's name ends with (_ms, _bytes, _kib, _per_s, ...).
type results struct {
	Order   []string                        // metrics in the order first recorded
	Samples map[string]map[string][]float64 `json:"samples"`
	Notes   []string                        `json:"notes"`
}

func newResults() *results { return &results{Samples: map[string]map[string][]float64{}} }

func (r *results) add(metric, label string, v float64) {
	m, ok := r.Samples[metric]
	if !ok {
		m = map[string][]float64{}
		r.Samples[metric] = m
		r.Order = append(r.Order, metric)
	}
	m[label] = append(m[label], v)
}

func (r *results) note(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	r.Notes = append(r.Notes, s)
	fmt.Fprintln(os.Stderr, "note:", s)
}

// median of the samples (NaN when there are none).
func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// med is the median of metric for label.
func (r *results) med(metric, label string) float64 { return median(r.Samples[metric][label]) }

func ratio(a, b float64) float64 {
	if b == 0 || math.IsNaN(a) || math.IsNaN(b) {
		return math.NaN()
	}
	return a / b
}

func fmtNum(v float64) string {
	switch {
	case math.IsNaN(v):
		return "—"
	case v == 0:
		return "0"
	case math.Abs(v) >= 100:
		return fmt.Sprintf("%.0f", v)
	case math.Abs(v) >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

func fmtRatio(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	return fmt.Sprintf("%.2f×", v)
}

// writeTable prints the medians of every metric for labels, with the
// ratios new/base and new/crush (and base/crush) where those columns exist.
func (r *results) writeTable(w io.Writer, labels []string) {
	has := map[string]bool{}
	for _, l := range labels {
		has[l] = true
	}
	head := []string{"metric"}
	for _, l := range labels {
		head = append(head, l+" (median, n)")
	}
	if has["base"] && has["new"] {
		head = append(head, "new/base")
	}
	if has["crush"] && has["new"] {
		head = append(head, "new/crush")
	}
	if has["crush"] && has["base"] {
		head = append(head, "base/crush")
	}
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	for _, m := range r.Order {
		row := []string{"`" + m + "`"}
		for _, l := range labels {
			v := r.Samples[m][l]
			if len(v) == 0 {
				row = append(row, "—")
				continue
			}
			row = append(row, fmt.Sprintf("%s (%d)", fmtNum(median(v)), len(v)))
		}
		if has["base"] && has["new"] {
			row = append(row, fmtRatio(ratio(r.med(m, "new"), r.med(m, "base"))))
		}
		if has["crush"] && has["new"] {
			row = append(row, fmtRatio(ratio(r.med(m, "new"), r.med(m, "crush"))))
		}
		if has["crush"] && has["base"] {
			row = append(row, fmtRatio(ratio(r.med(m, "base"), r.med(m, "crush"))))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
	}
}

// goal is one of issue 19's goals, evaluated on the medians.
type goal struct {
	Name          string
	Base, Now     float64 // the measured figures (the unit in Name)
	Ratio         float64 // the figure the goal bounds
	RatioOf       string  // what Ratio is a ratio of
	Limit         float64 // met when Ratio <= Limit
	Met           bool
	Missing       bool
	BaseLabel     string
	ComparedLabel string
}

func (r *results) goals(sizes []int) []goal {
	var out []goal
	add := func(name string, base, now, denom float64, of string, limit float64) {
		g := goal{Name: name, Base: base, Now: now, Ratio: ratio(now, denom), RatioOf: of, Limit: limit}
		g.Missing = math.IsNaN(g.Ratio)
		g.Met = !g.Missing && g.Ratio <= limit
		out = append(out, g)
	}
	fresh := r.med("first_frame_ms", "new")
	for _, n := range sizes {
		m := fmt.Sprintf("continue_%d_ms", n)
		add(fmt.Sprintf("--continue %d messages, ms: ≤ 1.5× a fresh start", n), r.med(m, "base"), r.med(m, "new"), fresh, "new continue / new fresh start", 1.5)
		add(fmt.Sprintf("--continue %d messages, ms: ≤ 0.5× Crush's", n), r.med(m, "base"), r.med(m, "new"), r.med(m, "crush"), "new / Crush", 0.5)
	}
	add("bytes per typed character (idle main screen): ≤ 2× Crush's", r.med("typing_bytes_per_char", "base"), r.med("typing_bytes_per_char", "new"),
		r.med("typing_bytes_per_char", "crush"), "new / Crush", 2)
	add("bytes per streamed delta: ≤ 2× the delta's cells (8)", r.med("stream_bytes_per_delta", "base"), r.med("stream_bytes_per_delta", "new"),
		8, "new / 8 cells", 2)
	add("package init of --version, ms: ≤ 0.3× the baseline", r.med("init_version_ms", "base"), r.med("init_version_ms", "new"),
		r.med("init_version_ms", "base"), "new / base", 0.3)
	add("package init of the sandbox helper, ms: ≤ 0.3× the baseline", r.med("init_helper_ms", "base"), r.med("init_helper_ms", "new"),
		r.med("init_helper_ms", "base"), "new / base", 0.3)
	add("sandboxed true, ms: ≤ 2× a plain true", r.med("sandboxed_true_ms", "base"), r.med("sandboxed_true_ms", "new"),
		r.med("plain_true_ms", "new"), "new sandboxed / plain", 2)
	add("store daemon idle wake-ups per second: ≤ 10", r.med("daemon_idle_wakeups_per_s", "base"), r.med("daemon_idle_wakeups_per_s", "new"),
		1, "new (per second)", 10)
	add("store daemon idle CPU, ms/s: ≤ 0.1× the baseline", r.med("daemon_idle_cpu_ms_per_s", "base"), r.med("daemon_idle_cpu_ms_per_s", "new"),
		r.med("daemon_idle_cpu_ms_per_s", "base"), "new / base", 0.1)
	for _, m := range []string{"first_frame_ms", "rss_after_stream_kib", "stream_cpu_ms", "stream_total_cpu_ms"} {
		add("no regression: "+m+" ≤ 1.1× the baseline", r.med(m, "base"), r.med(m, "new"), r.med(m, "base"), "new / base", 1.1)
	}
	idle := r.med("idle_bytes_per_s", "new")
	g := goal{Name: "no regression: idle redraws (bytes written while idle) = 0", Base: r.med("idle_bytes_per_s", "base"), Now: idle,
		Ratio: idle, RatioOf: "new bytes/s", Limit: 0}
	g.Missing = math.IsNaN(idle)
	g.Met = !g.Missing && idle == 0
	out = append(out, g)
	return out
}

func writeGoals(w io.Writer, gs []goal) {
	fmt.Fprintln(w, "| goal | baseline | now | ratio | met |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, g := range gs {
		met := "not met"
		switch {
		case g.Missing:
			met = "not measured"
		case g.Met:
			met = "met"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s (%s) | %s |\n", g.Name, fmtNum(g.Base), fmtNum(g.Now), fmtRatio(g.Ratio), g.RatioOf, met)
	}
}

func (r *results) writeJSON(path string, gs []goal) error {
	num := func(v float64) any { // JSON has no NaN: a figure not measured is null
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		return v
	}
	var goals []map[string]any
	for _, g := range gs {
		goals = append(goals, map[string]any{"name": g.Name, "base": num(g.Base), "now": num(g.Now), "ratio": num(g.Ratio),
			"ratio_of": g.RatioOf, "limit": g.Limit, "met": g.Met, "measured": !g.Missing})
	}
	b, err := json.MarshalIndent(map[string]any{"metrics": r.Order, "samples": r.Samples, "notes": r.Notes, "goals": goals}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
