package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Scheduled prompts (/loop, /schedule; as Claude Code's /loop): a prompt sent
// on an interval or at a time while the workbench is open. Each job arms one
// timer on the pump's timer clock (pump.after) for its next due time; nothing
// ticks in between, so an idle workbench with jobs still draws nothing until
// one comes due. A due job whose prompt cannot start at once (a turn runs —
// this workbench's or another process's —, another session is shown, a /model
// flow or a person's queued prompt waits) waits in a queue, first due first
// sent, and starts as soon as a frame finds the workbench free: queued, never
// dropped, and never twice (a repeat that comes due again while it still waits
// is not queued again). A repeat's next time is counted from when it was due,
// skipping the times that passed while it waited. The jobs live in the
// workbench's state and end with it.

// schedJob is one /loop or /schedule entry.
type schedJob struct {
	id     int
	prompt string
	every  time.Duration // 0: once
	next   time.Time     // when it is due next
	due    bool          // came due and waits in the queue
	stop   func()        // cancels its armed timer
}

// scheduleState is the workbench's scheduled prompts (UIState.sched).
type scheduleState struct {
	jobs   []*schedJob // in the order made
	queue  []int       // IDs of the due jobs waiting, first due first
	nextID int
}

// slashLoop is /loop.
func (w *Workbench) slashLoop(args []string) bool {
	req, err := parseLoop(w.slashRest(args), w.now())
	return w.schedule("/loop", req, err)
}

// slashSchedule is /schedule.
func (w *Workbench) slashSchedule(args []string) bool {
	req, err := parseSchedule(w.slashRest(args), w.now())
	return w.schedule("/schedule", req, err)
}

// slashRest is the text after the command's name of the line runSlash runs
// (UIState.slashLine: the prompt keeps its spaces and lines), else args joined.
func (w *Workbench) slashRest(args []string) string {
	if w.slashLine != "" {
		return afterWords(w.slashLine, 1)
	}
	return strings.Join(args, " ")
}

// schedule carries out a parsed /loop or /schedule line (cmd: the command
// typed, which its answers name); it reports whether the input box should be
// cleared.
func (w *Workbench) schedule(cmd string, req schedRequest, err error) bool {
	if err != nil {
		w.Notify("warning", err.Error())
		return false
	}
	switch req.op {
	case schedList:
		w.notice("info", w.scheduleList())
	case schedCancel:
		return w.cancelJobs(cmd, req.cancel)
	case schedAdd:
		if why := schedulablePrompt(req.prompt, w.knownCommand()); why != "" {
			w.Notify("warning", why)
			return false
		}
		w.sched.nextID++
		j := &schedJob{id: w.sched.nextID, prompt: req.prompt, every: req.every, next: req.at}
		w.sched.jobs = append(w.sched.jobs, j)
		w.armJob(j)
		w.notice("info", "scheduled "+w.describeJob(j)+" ("+cmd+" cancel "+strconv.Itoa(j.id)+" stops it)")
	}
	return true
}

// schedulablePrompt says why a prompt cannot be scheduled ("" when it can):
// an unknown /name is refused now rather than at each run, and /loop and
// /schedule do not schedule themselves; known is the catalog's test
// (classifyInput): a skill or custom command may be scheduled.
func schedulablePrompt(prompt string, known func(string) bool) string {
	switch classifyInput(prompt, known) {
	case inputUnknownCommand:
		return "unknown command " + strings.Fields(prompt)[0] + " — /help lists them"
	case inputCommand:
		if first := strings.Fields(prompt)[0]; first == "/loop" || first == "/schedule" {
			return first + " cannot be scheduled"
		}
	}
	return ""
}

// armJob starts j's timer for its next due time.
func (w *Workbench) armJob(j *schedJob) {
	d := j.next.Sub(w.now())
	if d < 0 {
		d = 0
	}
	id := j.id
	j.stop = w.pump.after(d, func() { w.jobDue(id) })
}

// jobDue is a job's timer firing (on the event loop): the job joins the queue
// unless it already waits there, a repeat is armed for its next time, and the
// queue runs if the workbench is free.
func (w *Workbench) jobDue(id int) {
	j := w.job(id)
	if j == nil {
		return // cancelled meanwhile
	}
	if !j.due {
		j.due = true
		w.sched.queue = append(w.sched.queue, id)
	}
	if j.every > 0 {
		now := w.now()
		j.next = j.next.Add(j.every)
		if !j.next.After(now) {
			j.next = now.Add(j.every) // it waited past its next time: no burst to catch up
		}
		w.armJob(j)
	}
	w.runDueJobs()
}

// runDueJobs starts the first waiting due job when the workbench is free (no
// turn runs here or in another process on this session, the live session is
// shown, no /model flow, no prompt queued by the person). Called when a job
// comes due and at every frame, so a job that waited starts on the frame
// after what held it ends. Event loop only.
func (w *Workbench) runDueJobs() {
	if len(w.sched.queue) == 0 || !w.freeForScheduled() {
		return
	}
	id := w.sched.queue[0]
	w.sched.queue = w.sched.queue[1:]
	j := w.job(id)
	if j == nil {
		return
	}
	j.due = false
	if j.every == 0 {
		w.dropJob(id)
	}
	w.notice("info", fmt.Sprintf("scheduled #%d: %s", j.id, firstLineCut(j.prompt, 60)))
	if classifyInput(j.prompt, w.knownCommand()) == inputCommand {
		w.runSlash(j.prompt)
		return
	}
	w.startTurn(w.be, w.liveID, j.prompt)
}

// freeForScheduled reports whether a due prompt may start now.
func (w *Workbench) freeForScheduled() bool {
	return w.be != nil && w.liveID != "" && !w.readOnly && !w.running && !w.othersTurn() &&
		w.queued == "" && !w.flowBusy && w.prompt == nil
}

// cancelJobs is "cancel ID" or "cancel all" of cmd (/loop, /schedule).
func (w *Workbench) cancelJobs(cmd, which string) bool {
	if which == "all" {
		n := len(w.sched.jobs)
		for len(w.sched.jobs) > 0 {
			w.dropJob(w.sched.jobs[0].id)
		}
		w.Notify("info", fmt.Sprintf("cancelled %d scheduled prompt(s)", n))
		return true
	}
	id, err := strconv.Atoi(which)
	if err != nil || w.job(id) == nil {
		w.Notify("warning", "no scheduled prompt "+which+" ("+cmd+" list shows them)")
		return false
	}
	j := w.job(id)
	w.dropJob(id)
	w.Notify("info", "cancelled "+w.describeJob(j))
	return true
}

// job finds a job by ID (nil: none).
func (w *Workbench) job(id int) *schedJob {
	for _, j := range w.sched.jobs {
		if j.id == id {
			return j
		}
	}
	return nil
}

// dropJob removes a job: its timer stops and it leaves the queue.
func (w *Workbench) dropJob(id int) {
	for i, j := range w.sched.jobs {
		if j.id == id {
			if j.stop != nil {
				j.stop()
			}
			w.sched.jobs = append(w.sched.jobs[:i:i], w.sched.jobs[i+1:]...)
			break
		}
	}
	for i, q := range w.sched.queue {
		if q == id {
			w.sched.queue = append(w.sched.queue[:i:i], w.sched.queue[i+1:]...)
			break
		}
	}
}

// scheduleList is the list's text: one entry per job, or that there is none.
func (w *Workbench) scheduleList() string {
	if len(w.sched.jobs) == 0 {
		return "no scheduled prompts (/loop 5m PROMPT, /schedule in 30m PROMPT, every 1h, at 14:00)"
	}
	parts := make([]string, len(w.sched.jobs))
	for i, j := range w.sched.jobs {
		parts[i] = w.describeJob(j)
	}
	return "scheduled: " + strings.Join(parts, " · ")
}

// describeJob is one job as the list shows it: "#2 every 5m, next 14:05: check the deploy"
// ("next now" for a /loop just made: it runs at once).
func (w *Workbench) describeJob(j *schedJob) string {
	at := clockText(w.now(), j.next)
	if !j.next.After(w.now()) {
		at = "now"
	}
	when := "once at " + at
	if j.every > 0 {
		when = "every " + humanDuration(j.every) + ", next " + at
	}
	if j.due {
		when += ", due: waits for the turn to end"
	}
	return fmt.Sprintf("#%d %s: %s", j.id, when, firstLineCut(j.prompt, 60))
}

// clockText is at as a time of day, with its date when it is not today.
func clockText(now, at time.Time) string {
	y1, m1, d1 := now.Date()
	y2, m2, d2 := at.Date()
	if y1 == y2 && m1 == m2 && d1 == d2 {
		return at.Format("15:04:05")
	}
	return at.Format("Jan 2 15:04")
}

// firstLineCut is s's first line cut to n runes.
func firstLineCut(s string, n int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
