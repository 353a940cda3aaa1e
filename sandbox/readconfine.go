package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrReadsNotConfined is the error of an Executor whose Policy.ConfineReads
// cannot hold here: the OS sandbox is off, or Landlock is unavailable. The
// command is not run.
var ErrReadsNotConfined = errors.New("sandbox: reads cannot be confined to the workspace here")

// confinedSystemDirs are the system trees a confined command may read: where
// programs, their libraries and the machine's configuration live (/etc:
// resolver, users, certificates, git's and the toolchains' system
// configuration), what package managers install (/opt, /nix, /snap), and the
// kernel's views (/proc: a command's own processes in its PID namespace;
// /sys). None holds a person's files.
var confinedSystemDirs = []string{
	"/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32", "/etc", "/opt", "/nix", "/snap", "/proc", "/sys",
}

// confinedHomeToolchains are the toolchain installations below the home
// directory a confined command may read (each chosen by its environment
// variable, else its default): version managers whose programs the PATH
// names but whose libraries lie beside them. Each holds installed toolchains,
// not the person's files; GOPATH is not among them (its src holds projects).
var confinedHomeToolchains = []struct{ env, def string }{
	{"NVM_DIR", ".nvm"},        // nvm: node versions and their global npm modules
	{"RUSTUP_HOME", ".rustup"}, // rustup: Rust toolchains
	{"PYENV_ROOT", ".pyenv"},   // pyenv: Python versions
	{"VOLTA_HOME", ".volta"},   // Volta: node, npm and yarn versions
	{"GOROOT", ""},             // a Go installed by hand in the home directory (only when set)
	{"SDKMAN_DIR", ".sdkman"},  // SDKMAN!: JDKs, Gradle, Maven
	{"BUN_INSTALL", ".bun"},    // Bun
	{"DENO_INSTALL", ".deno"},  // Deno
}

// confinedReads returns what a command confined by Policy.ConfineReads may
// read, as symlink-free directories and files that exist: every tree it may
// write (workspace roots, the shared git directory, temp dirs, caches,
// writable roots), the toolchain caches also when NoCacheRoots keeps them
// read-only, the workspace's added directories, the main repositories of a
// linked worktree (sealed), confinedSystemDirs, the resolver file /etc
// points at, the person's git configuration (~/.gitconfig and
// $XDG_CONFIG_HOME/git: identity, aliases, ignores) and Policy.GitReads (its
// includes, excludes and attributes files: regular files only), the PATH's directories
// (not the home directory or above it) and confinedHomeToolchains, each
// resolved through g (a path whose way passes a symlink a command could have
// made is left out: red team r23 C4, C7). Device
// files are the device rules of applyLandlock. Hidden paths stay hidden: they
// are covered by mounts, whatever Landlock allows.
func (e *Executor) confinedReads(trees []treeSpec, sealed []string, g pathGuard) (dirs, files []string) {
	home := homeDir()
	cands := treePaths(trees)
	cands = append(cands, cachePaths()...)
	if e.Workspace != nil {
		cands = append(cands, e.Workspace.Roots()...)
		cands = append(cands, e.Workspace.GrantedDirs()...)
	}
	cands = append(cands, sealed...)
	cands = append(cands, confinedSystemDirs...)
	cands = append(cands, "/etc/resolv.conf") // often a link into /run
	if home != "" {
		cands = append(cands, filepath.Join(home, ".gitconfig"))
	}
	if xdg := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(xdg) {
		cands = append(cands, filepath.Join(xdg, "git"))
	} else if home != "" {
		cands = append(cands, filepath.Join(home, ".config", "git"))
	}
	cands = append(cands, filepath.SplitList(os.Getenv("PATH"))...)
	for _, tc := range confinedHomeToolchains {
		if v := os.Getenv(tc.env); filepath.IsAbs(v) {
			cands = append(cands, v)
		} else if tc.def != "" && home != "" {
			cands = append(cands, filepath.Join(home, tc.def))
		}
	}
	for _, c := range cands {
		if !filepath.IsAbs(c) {
			continue // a relative PATH entry
		}
		real, err := g.resolve(c)
		if err != nil || opensHome(real, home) {
			continue
		}
		fi, err := os.Stat(real)
		switch {
		case err != nil:
		case fi.IsDir():
			dirs = append(dirs, real)
		default:
			files = append(files, real)
		}
	}
	for _, f := range e.Policy.GitReads { // regular files only: never a tree (red team r21c F1)
		if !filepath.IsAbs(f) {
			continue
		}
		if real, err := g.resolve(f); err == nil {
			if fi, err := os.Stat(real); err == nil && fi.Mode().IsRegular() {
				files = append(files, real)
			}
		}
	}
	return dedupe(dirs), dedupe(files)
}

// opensHome reports whether reading the tree p would read the whole home
// directory: p is "/", home itself, or a directory above it (a PATH entry
// of $HOME, a GOROOT of /).
func opensHome(p, home string) bool {
	if p == "/" {
		return true
	}
	if home == "" {
		return false
	}
	if real, err := filepath.EvalSymlinks(home); err == nil {
		home = real
	}
	return p == home || strings.HasPrefix(home, p+string(filepath.Separator))
}

// readConfineCheck returns why the policy's ConfineReads cannot hold under
// report r, or nil when it can (or is not asked for).
func readConfineCheck(pol Policy, r Report) error {
	switch {
	case !pol.ConfineReads:
		return nil
	case !pol.Enabled:
		return fmt.Errorf("%w: the OS sandbox is off", ErrReadsNotConfined)
	case r.LandlockABI == 0:
		return fmt.Errorf("%w: Landlock is unavailable (%s)", ErrReadsNotConfined, r.LandlockError)
	}
	return nil
}

// CanConfineReads returns nil when a command can run here under e.Policy
// with ConfineReads set, and otherwise why not (wrapping
// ErrReadsNotConfined): the OS sandbox is off or Landlock is unavailable.
func (e *Executor) CanConfineReads() error {
	pol := e.Policy
	pol.ConfineReads = true
	probe := e.probe
	if probe == nil {
		probe = probeWith
	}
	return readConfineCheck(pol, probe(e.helper()))
}
