package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// cargoReadOnly are the entries of CARGO_HOME that stay read-only although its
// caches are writable: installed binaries (on the user's PATH) and
// configuration (which can name programs cargo runs), so that a command cannot
// plant something that runs outside the sandbox later.
var cargoReadOnly = []string{"bin", "config", "config.toml", "credentials", "credentials.toml", "env"}

// cacheDir is a toolchain cache as the environment names it: an absolute
// path (not resolved) and the entries in it that stay read-only (relative).
type cacheDir struct {
	path     string
	readOnly []string
}

// toolchainCacheDirs returns the toolchain caches commands may write to, as
// the environment names them: Go's build and module caches, npm's cache,
// pip's cache, the XDG cache directory, and cargo's registry and git caches.
// Caches whose toolchain is installed are created when missing, so that their
// first use inside the sandbox works. Computed once per process (running `go
// env` at most once); resolved for each command (see toolchainCaches), since
// a command may replace one with a symlink.
var toolchainCacheDirs = sync.OnceValue(func() []cacheDir {
	home, _ := os.UserHomeDir()
	var dirs []cacheDir
	add := func(path string, create bool, readOnly ...string) {
		if path == "" || !filepath.IsAbs(path) {
			return
		}
		if create {
			_ = os.MkdirAll(path, 0o755)
		}
		dirs = append(dirs, cacheDir{path: filepath.Clean(path), readOnly: readOnly})
	}

	xdg, _ := os.UserCacheDir()
	add(xdg, true)

	if goCache, goModCache, ok := goEnvCaches(); ok {
		add(goCache, true)
		add(goModCache, true)
	}

	npmCache := os.Getenv("npm_config_cache")
	if npmCache == "" && home != "" {
		npmCache = filepath.Join(home, ".npm")
	}
	add(npmCache, installed("npm"))

	if pip := os.Getenv("PIP_CACHE_DIR"); pip != "" {
		add(pip, false)
	} else if xdg != "" {
		add(filepath.Join(xdg, "pip"), false) // inside xdg; listed for clarity
	}

	cargoHome := os.Getenv("CARGO_HOME")
	if cargoHome == "" && home != "" {
		cargoHome = filepath.Join(home, ".cargo")
	}
	if fi, err := os.Stat(cargoHome); err == nil && fi.IsDir() {
		for _, d := range []string{"registry", "git"} {
			_ = os.MkdirAll(filepath.Join(cargoHome, d), 0o755)
		}
		add(cargoHome, false, cargoReadOnly...)
	}
	return dirs
})

// cachePaths returns the paths of toolchainCacheDirs, unresolved.
func cachePaths() []string {
	var out []string
	for _, c := range toolchainCacheDirs() {
		out = append(out, c.path)
	}
	return out
}

// toolchainCaches returns toolchainCacheDirs as writable trees (absolute and
// symlink-free), each resolved through g now; a cache that is missing is left
// out, and one that resolves through a symlink a command could have made is
// left out with a note saying so.
func toolchainCaches(g pathGuard) (trees []treeSpec, notes []string) {
	for _, c := range toolchainCacheDirs() {
		real, err := g.resolve(c.path)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				notes = append(notes, fmt.Sprintf("toolchain cache %s skipped: %v", c.path, err))
			}
			continue
		}
		t := treeSpec{Path: real}
		for _, r := range c.readOnly {
			t.ReadOnly = append(t.ReadOnly, filepath.Join(real, r))
		}
		trees = append(trees, t)
	}
	return trees, notes
}

// goEnvCaches returns GOCACHE and GOMODCACHE as the go command reports them
// (which accounts for go.env files; the go found first on PATH, run from "/"
// with GOTOOLCHAIN=local), or false when go is not installed. A
// cache turned off ("off") is returned empty.
func goEnvCaches() (goCache, goModCache string, ok bool) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return "", "", false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// From "/" and with GOTOOLCHAIN=local: in the workspace a go.mod asking
	// for a newer Go would make go run the toolchain in GOMODCACHE, which
	// commands may write (red team r24c F3).
	cmd := exec.CommandContext(ctx, goBin, "env", "GOCACHE", "GOMODCACHE")
	cmd.Dir, cmd.Env = "/", append(os.Environ(), "GOTOOLCHAIN=local", "GOWORK=off")
	out, err := cmd.Output()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err != nil || len(lines) != 2 {
		goCache, goModCache = defaultGoCaches()
		lines = []string{goCache, goModCache}
	}
	goCache, goModCache = strings.TrimSpace(lines[0]), strings.TrimSpace(lines[1])
	if goCache == "off" {
		goCache = ""
	}
	return goCache, goModCache, true
}

// installed reports whether program is in PATH.
func installed(program string) bool {
	_, err := exec.LookPath(program)
	return err == nil
}

// defaultGoCaches returns GOCACHE and GOMODCACHE from the environment, else
// their documented defaults (the XDG cache dir's go-build, GOPATH's first
// entry's pkg/mod), without running go.
func defaultGoCaches() (goCache, goModCache string) {
	goCache = os.Getenv("GOCACHE")
	if goCache == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			goCache = filepath.Join(dir, "go-build")
		}
	}
	goModCache = os.Getenv("GOMODCACHE")
	if goModCache == "" {
		gopath := os.Getenv("GOPATH")
		if gopath == "" {
			home, _ := os.UserHomeDir()
			gopath = filepath.Join(home, "go")
		}
		goModCache = filepath.Join(filepath.SplitList(gopath)[0], "pkg", "mod")
	}
	return goCache, goModCache
}

// cacheCandidates are the toolchain caches as the environment and the
// documented defaults name them, found without running anything (as
// writable trees, not resolved; CARGO_HOME with its read-only entries): what
// TrustOwnPATH leaves out before `go env` may run (red team r24b F3: a PATH
// entry under ~/.cache held a planted go, which `go env` ran).
func cacheCandidates() []treeSpec {
	home, _ := os.UserHomeDir()
	var out []treeSpec
	add := func(p string, readOnly ...string) {
		if filepath.IsAbs(p) {
			t := treeSpec{Path: filepath.Clean(p)}
			for _, r := range readOnly {
				t.ReadOnly = append(t.ReadOnly, filepath.Join(t.Path, r))
			}
			out = append(out, t)
		}
	}
	if xdg, err := os.UserCacheDir(); err == nil {
		add(xdg)
	}
	goCache, goModCache := defaultGoCaches()
	add(goCache)
	add(goModCache)
	if npm := os.Getenv("npm_config_cache"); npm != "" {
		add(npm)
	} else if home != "" {
		add(filepath.Join(home, ".npm"))
	}
	add(os.Getenv("PIP_CACHE_DIR"))
	if cargo := os.Getenv("CARGO_HOME"); cargo != "" {
		add(cargo, cargoReadOnly...)
	} else if home != "" {
		add(filepath.Join(home, ".cargo"), cargoReadOnly...)
	}
	return out
}
