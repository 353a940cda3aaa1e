package mcp

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"pincer/sandbox"
)

// protocolVersion is the version pincer asks for in initialize: the newest
// session-based one (2025-11-25); a server answering with an older version it
// supports is accepted, as the SDK negotiates.
const protocolVersion = "2025-11-25"

// stdioProcess is a spawned stdio server: the command (its own process group)
// and its log file.
type stdioProcess struct {
	cmd *exec.Cmd
	log *os.File
	// logPath is the log's file, logStart where this start's output begins in it.
	logPath  string
	logStart int64
}

// transportFor builds the SDK transport of cfg. A stdio server is spawned in a
// process group of its own (killProcessGroup ends it and its children), with
// the parent-death signal set on Linux (a pincer killed with SIGKILL leaves no
// server behind), its working directory dir, its stderr appended to
// LogDir/NAME.log (0600; discarded without a LogDir) and the environment env
// (the sandbox's allowlist plus the entry's env: pincer's provider keys and
// other secrets are not passed unless the entry itself names them).
func transportFor(cfg ServerConfig, opts Options) (sdk.Transport, *stdioProcess, error) {
	switch cfg.Transport {
	case TransportStdio, "":
		if cfg.Command == "" {
			return nil, nil, fmt.Errorf("server %s has no command", cfg.Name)
		}
		cmd := exec.Command(projectCommand(cfg.Command, opts.Dir), projectArgs(cfg.Args, opts.Dir)...)
		cmd.Dir = opts.Dir
		if opts.RunDir != "" && prepareRunDir(opts.RunDir) == nil {
			cmd.Dir = opts.RunDir
		}
		cmd.Env = serverEnv(opts.BaseEnv, withCacheEnv(cfg.Env, opts.CacheDir))
		if opts.Dir != "" {
			cmd.Env = append(cmd.Env, "PINCER_PROJECT_DIR="+opts.Dir, "CLAUDE_PROJECT_DIR="+opts.Dir)
		}
		setProcessGroup(cmd)
		p := &stdioProcess{cmd: cmd}
		if opts.LogDir != "" {
			if err := os.MkdirAll(opts.LogDir, 0o700); err == nil {
				f, err := openLog(filepath.Join(opts.LogDir, Sanitize(cfg.Name)+".log"))
				if err == nil {
					fmt.Fprintf(f, "--- %s: starting %s\n", time.Now().Format(time.RFC3339), cfg.Command)
					cmd.Stderr = f
					p.log, p.logPath = f, f.Name()
					p.logStart, _ = f.Seek(0, io.SeekEnd)
				}
			}
		}
		return &sdk.CommandTransport{Command: cmd, TerminateDuration: killGrace}, p, nil
	case TransportHTTP:
		return &sdk.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: headerClient(cfg.Headers), MaxRetries: 2}, nil, nil
	case TransportSSE:
		return &sdk.SSEClientTransport{Endpoint: cfg.URL, HTTPClient: headerClient(cfg.Headers)}, nil, nil
	}
	return nil, nil, fmt.Errorf("server %s: unknown transport %q", cfg.Name, cfg.Transport)
}

// maxLog is the size past which a server's log is started afresh when the
// server is (re)started, so a chatty server never fills the disk.
const maxLog = 4 << 20

// openLog opens a server's log for appending (0600, never through a symlink),
// emptied first when it has grown past maxLog.
func openLog(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND|openNoFollow, 0o600)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.Size() > maxLog {
		_ = f.Truncate(0)
	}
	return f, nil
}

// serverEnv is a stdio server's environment: base (nil: sandbox.CommandEnv(),
// the allowlist every command gets) with the entry's variables last, so they win.
func serverEnv(base []string, extra map[string]string) []string {
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	kv := make([]string, 0, len(keys))
	for _, k := range keys {
		kv = append(kv, k+"="+extra[k])
	}
	if base == nil {
		return sandbox.CommandEnv(kv...)
	}
	return append(append([]string(nil), base...), kv...)
}

// headerClient is an HTTP client sending headers with every request.
func headerClient(headers map[string]string) *http.Client {
	if len(headers) == 0 {
		return &http.Client{}
	}
	return &http.Client{Transport: headerTransport{headers: headers, next: http.DefaultTransport}}
}

type headerTransport struct {
	headers map[string]string
	next    http.RoundTripper
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range t.headers {
		r.Header.Set(k, v)
	}
	return t.next.RoundTrip(r)
}

// withCacheEnv returns env (an entry's) with sandbox.PrivateCacheEnv's
// variables under dir added for those it does not set itself; env itself
// when dir is "".
func withCacheEnv(env map[string]string, dir string) map[string]string {
	extra := sandbox.PrivateCacheEnv(dir, sandbox.SetIn(env))
	if len(extra) == 0 {
		return env
	}
	out := make(map[string]string, len(env)+len(extra))
	for k, v := range env {
		out[k] = v
	}
	for _, kv := range extra {
		k, v, _ := strings.Cut(kv, "=")
		out[k] = v
	}
	return out
}

// projectArgs returns args with each relative path argument made absolute
// against dir, the workspace root: a stdio server runs in Options.RunDir, not
// there, yet `"args": ["."]` or `["./tools/srv.js"]` means the project's (as
// when servers ran in the workspace). A path argument is ".", "..", or one
// starting "./" or "../" ("--flag=VALUE" is looked at as VALUE); nothing else
// is taken for one — "github:user/repo", "user/repo" and "git+https://…" are
// package specs, and a directory of that name the model made in the
// workspace must not become what npx installs (red team r24e F2). An entry
// naming "tools/srv.js" bare writes "./tools/srv.js" instead.
func projectArgs(args []string, dir string) []string {
	if dir == "" {
		return args
	}
	out := make([]string, len(args))
	for i, a := range args {
		if flag, value, ok := strings.Cut(a, "="); ok && strings.HasPrefix(flag, "-") {
			out[i] = flag + "=" + projectPath(value, dir)
			continue
		}
		out[i] = projectPath(a, dir)
	}
	return out
}

// projectPath is projectArgs for one argument.
func projectPath(a, dir string) string {
	if a == "." || a == ".." || strings.HasPrefix(a, "./") || strings.HasPrefix(a, "../") {
		return filepath.Join(dir, a)
	}
	return a
}

// projectCommand is a server's command made absolute against dir when it is
// a relative path ("./tools/srv.sh", "bin/srv"); a bare name is looked up
// on PATH as before.
func projectCommand(command, dir string) string {
	if dir == "" || filepath.IsAbs(command) || !strings.Contains(command, "/") {
		return command
	}
	return filepath.Join(dir, command)
}

// prepareRunDir makes the run directory (0700) with an empty package.json in
// it: npm looks for its project (node_modules, .npmrc) from the working
// directory upwards and stops at the first package.json, so no directory
// above — writable by commands when PINCER_HOME lies under /tmp — is taken
// for one (red team r24d F3).
func prepareRunDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	p := filepath.Join(dir, "package.json")
	if _, err := os.Lstat(p); err == nil {
		return nil
	}
	return os.WriteFile(p, []byte(`{"name":"pincer-mcp-run","private":true}`+"\n"), 0o600)
}
