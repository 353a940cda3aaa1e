package daemon

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"pincer/core/message"
	"pincer/persist"
	"pincer/persist/badger"
	"pincer/persist/memory"
	"pincer/persist/remote"
)

// Tests with the daemon and clients in other processes: the test binary
// re-executes itself with childEnv set, and TestMain runs the child's part
// instead of the tests.

const (
	childEnv       = "PINCER_PERSIST_TEST_CHILD" // which child to run
	childDirEnv    = "PINCER_PERSIST_TEST_DIR"   // the store directory
	childSocketEnv = "PINCER_PERSIST_TEST_SOCKET"
	childIdleEnv   = "PINCER_PERSIST_TEST_IDLE"
	childSyncEnv   = "PINCER_PERSIST_TEST_SYNC"
)

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "daemon", "holder":
		os.Exit(remoteChild(os.Getenv(childEnv)))
	default:
		os.Exit(99)
	}
}

// t0 is the tests' fixed time.
var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// socketDir returns a short private directory for sockets (t.TempDir can exceed
// the ~100 bytes a socket path may have).
func socketDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "pst")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// serveMemory serves an in-memory store from this process on a fresh socket
// and returns a client of it and the socket.
func serveMemory(t testing.TB) (*remote.Client, string) {
	t.Helper()
	socket := filepath.Join(socketDir(t), "s.sock")
	l, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	srv := remote.NewServer(memory.New(), "test", "")
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return dial(t, socket), socket
}

// dial opens a client of the server on socket (never starting a daemon).
func dial(t testing.TB, socket string) *remote.Client {
	t.Helper()
	c, err := remote.Open(context.Background(), remote.Options{Socket: socket})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// openDisk opens Badger in dir and closes it when the test ends.
func openDisk(t testing.TB, dir string) *badger.Store {
	t.Helper()
	s, err := badger.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// remoteChild runs the "daemon" child (RunDaemon on fd 3's readiness pipe; it
// appends its pid to <socket>.started) or the "holder" child (takes the lease of
// session "s" through the daemon, prints "held", and waits to be killed).
func remoteChild(name string) int {
	socket := os.Getenv(childSocketEnv)
	switch name {
	case "daemon":
		f, _ := os.OpenFile(socket+".started", os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		fmt.Fprintln(f, os.Getpid())
		f.Close()
		idle, _ := time.ParseDuration(os.Getenv(childIdleEnv))
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
		defer stop()
		err := Run(ctx, Config{StoreDir: os.Getenv(childDirEnv), Idle: idle, Version: "test",
			Options: badger.Options{SyncWrites: os.Getenv(childSyncEnv) == "1"},
			Files:   Files{Socket: socket, Lock: LockFor(socket)}, OpenWait: 200 * time.Millisecond,
			Ready: os.NewFile(3, "ready"), Log: os.Stderr})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "holder":
		c, err := remote.Open(context.Background(), remote.Options{Socket: socket})
		if err != nil {
			fmt.Println(err)
			return 2
		}
		owner := fmt.Sprintf("pid:%d/holder", os.Getpid())
		if ok, _, err := c.AcquireLease(context.Background(), "s", owner, time.Hour); !ok || err != nil {
			fmt.Println("acquire:", ok, err)
			return 2
		}
		fmt.Println("held")
		select {}
	}
	return 99
}

// daemonOptions are the options of a client that starts the test daemon child.
// Every daemon started with them is stopped when the test ends (after the
// clients are closed, so that none starts another).
func daemonOptions(t testing.TB, storeDir string, idle time.Duration) StartOptions {
	socket := filepath.Join(socketDir(t), "d.sock")
	t.Cleanup(func() {
		b, _ := os.ReadFile(socket + ".started")
		for _, f := range strings.Fields(string(b)) {
			var pid int
			fmt.Sscan(f, &pid)
			if pid > 0 && syscall.Kill(pid, syscall.SIGTERM) == nil {
				waitGone(t, pid)
			}
		}
	})
	return StartOptions{Files: Files{Socket: socket, Log: socket + ".log"}, Command: []string{os.Args[0], "-test.run=^$"},
		Env: []string{childEnv + "=daemon", childDirEnv + "=" + storeDir, childSocketEnv + "=" + socket,
			childIdleEnv + "=" + idle.String()}}
}

// openDaemonClient opens a client that starts the daemon when needed.
func openDaemonClient(t testing.TB, opts StartOptions) *remote.Client {
	t.Helper()
	c, err := Connect(context.Background(), opts)
	if err != nil {
		log, _ := os.ReadFile(opts.Files.Log)
		t.Fatalf("Connect: %v\n%s", err, log)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// waitGone waits until process pid has exited.
func waitGone(t testing.TB, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d did not exit", pid)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// started lists the pids of the daemons started for opts.
func started(opts StartOptions) []string {
	b, _ := os.ReadFile(opts.Files.Socket + ".started")
	return strings.Fields(string(b))
}

func TestDaemonStartRaceKillAndRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	ctx := context.Background()
	opts := daemonOptions(t, t.TempDir(), time.Minute)
	const racers = 6
	clients := make([]*remote.Client, racers)
	var wg sync.WaitGroup
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			clients[i] = openDaemonClient(t, opts)
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	pids := map[int]bool{}
	for _, c := range clients {
		p, err := c.Ping(ctx)
		if err != nil {
			t.Fatal(err)
		}
		pids[p.PID] = true
	}
	if len(pids) != 1 || len(started(opts)) != 1 {
		t.Fatalf("racing clients reached daemons %v; started %v: want exactly one", pids, started(opts))
	}
	m := message.NewText(message.RoleUser, "before the kill")
	m.SessionID = "s"
	if _, err := clients[0].AppendMessage(ctx, m); err != nil {
		t.Fatal(err)
	}
	// Kill the daemon: its socket is left behind, stale. Every client carries on
	// (their attach loops start a new daemon at once, replacing the socket).
	for pid := range pids {
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		waitGone(t, pid)
	}
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := message.NewText(message.RoleUser, fmt.Sprint("after ", i))
			m.SessionID = "s"
			if _, err := clients[i].AppendMessage(ctx, m); err != nil {
				t.Errorf("client %d after the kill: %v", i, err)
			}
		}()
	}
	wg.Wait()
	msgs, err := clients[0].ListMessages(ctx, "s")
	if err != nil || len(msgs) != racers+1 || msgs[0].Text() != "before the kill" {
		t.Fatalf("after the restart: %d messages, %v", len(msgs), err)
	}
	if n := len(started(opts)); n != 2 {
		t.Fatalf("%d daemons started in all, want 2: %v", n, started(opts))
	}
}

func TestDaemonExitsWhenIdle(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	ctx := context.Background()
	opts := daemonOptions(t, t.TempDir(), 200*time.Millisecond)
	c, err := Connect(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.Ping(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.PutSession(ctx, persist.Session{ID: "kept", UpdatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(400 * time.Millisecond) // attached: not idle, however long
	if errors.Is(syscall.Kill(p.PID, 0), syscall.ESRCH) {
		t.Fatal("the daemon exited while a client was attached")
	}
	c.Close()
	waitGone(t, p.PID)
	if _, err := os.Stat(opts.Files.Socket); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("socket after an idle exit: %v", err)
	}
	c2 := openDaemonClient(t, opts)
	if s, err := c2.GetSession(ctx, "kept"); err != nil || s.ID != "kept" {
		t.Fatalf("after a new start: %+v, %v", s, err)
	}
}

func TestDaemonReportsStoreHeldDirectly(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	openDisk(t, dir) // as `pincer run --no-daemon`
	_, err := Connect(context.Background(), daemonOptions(t, dir, time.Minute))
	if !errors.Is(err, persist.ErrInUse) && !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Fatalf("Connect on a held store: %v", err)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Fatalf("not one line: %q", err)
	}
}

func TestKilledClientReleasesLeaseAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	ctx := context.Background()
	r, socket := serveMemory(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=holder", childSocketEnv+"="+socket)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if strings.TrimSpace(line) != "held" {
		cmd.Process.Kill()
		t.Fatalf("holder: %q", line)
	}
	if ok, l, _ := r.AcquireLease(ctx, "s", "pid:1/other", time.Minute); ok {
		t.Fatalf("the lease was free while held: %+v", l)
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	start := time.Now()
	for {
		ok, _, err := r.AcquireLease(ctx, "s", "pid:1/other", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			break
		}
		if time.Since(start) > 5*time.Second { // the TTL is an hour
			t.Fatal("the killed client's lease was not released")
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Logf("lease free %v after the kill", time.Since(start))
}

func TestDaemonExitsWhenStoreRemoved(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "store")
	opts := daemonOptions(t, dir, time.Hour)
	starter, err := Connect(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	starter.Close()
	c := dial(t, opts.Files.Socket) // attached, and never starts a daemon again
	p, err := c.Ping(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.PutSession(ctx, persist.Session{ID: "s", UpdatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	waitGone(t, p.PID) // with a client attached and an hour to idle
}

// TestDaemonIdleExitRace: clients come and go around a daemon that exits after
// 30 ms idle, so they keep meeting it while it exits; no call fails.
func TestDaemonIdleExitRace(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	ctx := context.Background()
	opts := daemonOptions(t, t.TempDir(), 30*time.Millisecond)
	for i := range 30 {
		c, err := Connect(ctx, opts)
		if err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
		if err := c.PutSession(ctx, persist.Session{ID: fmt.Sprint("s", i), UpdatedAt: t0}); err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
		if list, err := c.ListSessions(ctx, 0); err != nil || len(list) != i+1 {
			t.Fatalf("round %d: %d sessions, %v", i, len(list), err)
		}
		c.Close()
		time.Sleep(time.Duration(i%7) * 10 * time.Millisecond)
	}
	t.Logf("%d daemons started", len(started(opts)))
}
