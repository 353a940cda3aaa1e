package badger

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/persist"
)

// Tests with a second process: the test binary re-executes itself with childEnv
// set, and TestMain runs the child's part instead of the tests.

const (
	childEnv    = "PINCER_PERSIST_TEST_CHILD" // which child to run
	childDirEnv = "PINCER_PERSIST_TEST_DIR"   // the store directory
)

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "open":
		os.Exit(childOpen(os.Getenv(childDirEnv)))
	case "writer":
		os.Exit(childWriter(os.Getenv(childDirEnv)))
	default:
		os.Exit(99)
	}
}

// childOpen opens the store, prints the error (or "opened") and exits 0 when the
// error is ErrInUse.
func childOpen(dir string) int {
	s, err := Open(dir)
	if err == nil {
		fmt.Println("opened")
		s.Close()
		return 1
	}
	fmt.Println(err)
	if errors.Is(err, persist.ErrInUse) {
		return 0
	}
	return 2
}

// childWriter appends a message and an event per round until it is killed, and
// prints "m <seq>" / "e <seq>" after each acknowledged write. Every 64th message is
// large enough to go to the value log.
func childWriter(dir string) int {
	ctx := context.Background()
	s, err := Open(dir)
	if err != nil {
		fmt.Println("open:", err)
		return 2
	}
	seq, err := s.LastEventSequence(ctx, "s")
	if err != nil {
		fmt.Println("last:", err)
		return 2
	}
	out := bufio.NewWriter(os.Stdout)
	for range 1_000_000 {
		seq++
		text := strings.Repeat("x", 512)
		if seq%64 == 0 {
			text = strings.Repeat("y", 100<<10)
		}
		m := message.NewText(message.RoleUser, text)
		m.SessionID = "s"
		m, err := s.AppendMessage(ctx, m)
		if err != nil {
			fmt.Println("append message:", err)
			return 2
		}
		fmt.Fprintf(out, "m %d\n", m.Seq)
		out.Flush()
		ev, _ := event.New(event.MessageDelta, "s", "t", event.MessageDeltaData{MessageID: m.ID, Delta: "d"})
		ev.Sequence, ev.Timestamp = seq, time.Now()
		if err := s.AppendEvent(ctx, ev); err != nil {
			fmt.Println("append event:", err)
			return 2
		}
		fmt.Fprintf(out, "e %d\n", seq)
		out.Flush()
	}
	return 1
}

// child returns a command re-executing the test binary as the named child.
func child(name, dir string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+name, childDirEnv+"="+dir)
	return cmd
}

func TestSecondProcessGetsOneClearLine(t *testing.T) {
	dir := t.TempDir()
	openDisk(t, dir)
	cmd := child("open", dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	line := stdout.String()
	if err != nil {
		t.Fatalf("child: %v; stdout %q, stderr %q", err, line, stderr.String())
	}
	want := fmt.Sprintf("the store %s is held by another process (pid %d): pincer processes share a store "+
		"through the store daemon, but one opened with --no-daemon (PINCER_NO_DAEMON) has it to itself — "+
		"wait for that one to end\n",
		dir, os.Getpid())
	if line != want {
		t.Fatalf("child printed %q\nwant %q", line, want)
	}
	if stderr.Len() != 0 {
		t.Fatalf("child wrote to stderr: %q", stderr.String())
	}
}

func TestSameProcessOpensTwice(t *testing.T) {
	dir := t.TempDir()
	openDisk(t, dir)
	_, err := Open(dir)
	var inUse *InUseError
	if !errors.As(err, &inUse) || inUse.PID != os.Getpid() {
		t.Fatalf("second open: %v", err)
	}
	if !strings.Contains(err.Error(), "already open in this process") {
		t.Fatalf("message: %q", err)
	}
}

// TestKilledWriterLosesNoAcknowledgedWrite kills a writing child twice and checks
// after each kill that the store holds a gap-free prefix containing every write the
// child acknowledged, and that appending continues right after it.
func TestKilledWriterLosesNoAcknowledgedWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	var acked [2]uint64 // highest acknowledged message and event sequence
	for round := range 2 {
		start := acked
		got := runAndKill(t, dir, start, start[0]+300)
		if got[0] <= start[0] || got[1] <= start[1] {
			t.Fatalf("round %d: child acknowledged %v after %v", round, got, start)
		}
		acked = got

		s := openDisk(t, dir)
		ctx := context.Background()
		msgs, err := s.ListMessages(ctx, "s")
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range msgs {
			if m.Seq != uint64(i+1) {
				t.Fatalf("round %d: message %d has Seq %d (gap)", round, i, m.Seq)
			}
		}
		n := uint64(len(msgs))
		if n < acked[0] || n > acked[0]+1 {
			t.Fatalf("round %d: %d messages stored, child acknowledged %d", round, n, acked[0])
		}
		evs, err := s.ListEvents(ctx, "s", 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i, ev := range evs {
			if ev.Sequence != uint64(i+1) {
				t.Fatalf("round %d: event %d has Sequence %d (gap)", round, i, ev.Sequence)
			}
		}
		if e := uint64(len(evs)); e < acked[1] || e > acked[1]+1 {
			t.Fatalf("round %d: %d events stored, child acknowledged %d", round, e, acked[1])
		}
		acked = [2]uint64{n, uint64(len(evs))} // the next child continues from here
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// runAndKill starts a writer child in dir, SIGKILLs it once it acknowledged message
// n, and returns the highest acknowledged message and event sequences.
// Acknowledgements must come in order without gaps, right after stored (the
// sequences already in the store).
func runAndKill(t *testing.T, dir string, stored [2]uint64, n uint64) [2]uint64 {
	t.Helper()
	cmd := child("writer", dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
	defer timer.Stop()
	last := stored
	killed := false
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		kind, num, ok := strings.Cut(sc.Text(), " ")
		seq, err := strconv.ParseUint(num, 10, 64)
		if !ok || err != nil || (kind != "m" && kind != "e") {
			t.Errorf("child: %s", sc.Text())
			continue
		}
		i := 0
		if kind == "e" {
			i = 1
		}
		if seq != last[i]+1 {
			t.Fatalf("child acknowledged %s %d after %d", kind, seq, last[i])
		}
		last[i] = seq
		if !killed && last[0] >= n {
			killed = true
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
		}
	}
	err = cmd.Wait()
	if !killed {
		t.Fatalf("child ended before the kill: %v; stderr %q", err, stderr.String())
	}
	if stderr.Len() != 0 {
		t.Fatalf("child wrote to stderr: %q", stderr.String())
	}
	return last
}
