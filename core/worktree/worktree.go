// Package worktree keeps the git worktrees pincer makes for sessions that
// work apart from the main checkout (issue 14: `pincer --worktree NAME`, a
// subagent's `isolation: "worktree"`, a workbench tab in its own worktree).
//
// A worktree is a linked git worktree (`git worktree add`) on a new branch
// BranchPrefix+NAME, checked out from the main checkout's HEAD, in pincer's
// data directory: Manager.Root/PROJECT/NAME, where PROJECT names the main
// checkout (its base name and a hash of its path), with a record of it beside
// it (PROJECT/NAME.json: name, branch, base commit, repository, time). Both
// lie in the data directory, which the sandbox and the file tools hide; a
// session whose workspace is one worktree sees exactly that one (see
// sandbox.Workspace.ShareGit).
//
// Every git command here is pincer's own (core/prompt.RunGit's rules: the
// repository's helper programs — hooks, fsmonitor, filter and merge drivers,
// textconv, pager, credential helpers — off, no secrets in its environment),
// never the model's. Names are validated (Name) before they reach git or a
// path. The operations: Create, CreateFree (a free name for a subagent),
// Open, List, DiffStat, Commit, Merge, Remove.
package worktree

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"pincer/core/prompt"
)

// BranchPrefix starts the name of every branch pincer makes for a worktree.
const BranchPrefix = "pincer/"

// Errors the operations wrap.
var (
	// ErrExists: a worktree (or its branch) of that name already exists.
	ErrExists = errors.New("worktree already exists")
	// ErrNotFound: no worktree of that name in this repository.
	ErrNotFound = errors.New("no such worktree")
	// ErrNotRepo: the directory is not inside a git repository with a commit.
	ErrNotRepo = errors.New("not a git repository")
	// ErrDirty: uncommitted changes stand in the way (Merge: the main
	// checkout's; Remove: the worktree's).
	ErrDirty = errors.New("uncommitted changes")
	// ErrUnmerged: Remove without force of a worktree whose branch has
	// commits the main checkout's HEAD does not contain.
	ErrUnmerged = errors.New("unmerged commits")
	// ErrConflict: a merge met conflicts and was aborted.
	ErrConflict = errors.New("merge conflict")
	// ErrProtected: the branch changes protected paths (Merge without
	// allowProtected).
	ErrProtected = errors.New("the worktree changes protected files")
)

// Worktree is one worktree pincer made.
type Worktree struct {
	// Name is the worktree's name (valid by Name).
	Name string `json:"name"`
	// Path is the checkout's directory: absolute, symlink-free.
	Path string `json:"path"`
	// Branch is the branch checked out there (BranchPrefix+Name).
	Branch string `json:"branch"`
	// Base is the commit (full hash) the branch was created from: DiffStat
	// and Merge measure against it.
	Base string `json:"base"`
	// Repo is the main checkout's top directory (absolute, symlink-free).
	Repo string `json:"repo"`
	// GitDir is the worktree's own git directory (REPO/.git/worktrees/X).
	GitDir string `json:"gitDir"`
	// CommonDir is the main repository's git directory (REPO/.git).
	CommonDir string `json:"commonDir"`
	// Created is when Create made it (UTC).
	Created time.Time `json:"created"`
	// Missing reports (List) that the record is there but the checkout is not.
	Missing bool `json:"missing,omitempty"`
}

// Manager makes and finds worktrees under Root (the data directory's
// "worktrees": config.Paths.Data + "/worktrees").
type Manager struct {
	// Root holds one directory per project.
	Root string
}

// New returns a Manager for worktrees under root.
func New(root string) *Manager { return &Manager{Root: root} }

// Repository finds the main checkout of the repository around dir: the top
// of its work tree when dir is in the main checkout, or the main checkout of
// a linked worktree (the parent of the common git directory). It returns
// the top directory and the common git directory, both absolute and
// symlink-free. A bare repository has no main checkout: ErrNotRepo.
func Repository(ctx context.Context, dir string) (repo, commonDir string, err error) {
	out, err := prompt.RunGit(ctx, dir, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return "", "", fmt.Errorf("%w: %s: %v", ErrNotRepo, dir, err)
	}
	common, err := filepath.EvalSymlinks(strings.TrimSpace(out))
	if err != nil {
		return "", "", fmt.Errorf("%w: %s: %v", ErrNotRepo, dir, err)
	}
	if filepath.Base(common) != ".git" {
		return "", "", fmt.Errorf("%w: %s is a bare repository or has its git directory elsewhere (%s): a worktree needs a main checkout", ErrNotRepo, dir, common)
	}
	return filepath.Dir(common), common, nil
}

// projectDir is Root/PROJECT for the main checkout repo: its base name (kept
// to [A-Za-z0-9._-]) and 8 hex digits of the SHA-256 of its path, so two
// checkouts of one name stay apart.
func (m *Manager) projectDir(repo string) string {
	sum := sha256.Sum256([]byte(repo))
	base := strings.Map(func(r rune) rune {
		if r < 128 && (r == '.' || r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return r
		}
		return '_'
	}, filepath.Base(repo))
	base = strings.TrimLeft(base, ".")
	if base == "" {
		base = "repo"
	}
	return filepath.Join(m.Root, base+"-"+hex.EncodeToString(sum[:4]))
}

// Create makes worktree name for the repository around dir: a new branch
// BranchPrefix+name at the HEAD of dir's checkout, checked out in
// Root/PROJECT/name. It fails with ErrExists when the name (or the branch)
// is taken, ErrNotRepo outside a repository or before its first commit, and
// when name is not valid (Name).
func (m *Manager) Create(ctx context.Context, dir, name string) (Worktree, error) {
	if err := ValidName(name); err != nil {
		return Worktree{}, err
	}
	if m.Root == "" {
		return Worktree{}, errors.New("worktree: no data directory to keep worktrees in")
	}
	repo, common, err := Repository(ctx, dir)
	if err != nil {
		return Worktree{}, err
	}
	base, err := prompt.RunGit(ctx, dir, "rev-parse", "--verify", "--end-of-options", "HEAD^{commit}")
	if err != nil {
		return Worktree{}, fmt.Errorf("%w: %s has no commit to start a worktree from: %v", ErrNotRepo, repo, err)
	}
	proj := m.projectDir(repo)
	path := filepath.Join(proj, name)
	// The checks below and `git worktree add` are one step for this
	// process's callers (two isolation "worktree" subagents start at once);
	// another process taking the branch meanwhile is ErrExists too (below).
	createMu.Lock()
	defer createMu.Unlock()
	if _, err := os.Lstat(path); err == nil {
		return Worktree{}, fmt.Errorf("%w: %s (%s)", ErrExists, name, path)
	}
	if _, err := os.Lstat(recordPath(proj, name)); err == nil {
		return Worktree{}, fmt.Errorf("%w: %s (its record %s)", ErrExists, name, recordPath(proj, name))
	}
	branch := BranchPrefix + name
	if _, err := prompt.RunGit(ctx, repo, "rev-parse", "--verify", "--quiet", "--end-of-options", "refs/heads/"+branch); err == nil {
		return Worktree{}, fmt.Errorf("%w: the branch %s exists in %s", ErrExists, branch, repo)
	}
	if err := os.MkdirAll(proj, 0o700); err != nil {
		return Worktree{}, fmt.Errorf("worktree: %w", err)
	}
	wt := Worktree{Name: name, Branch: branch, Base: strings.TrimSpace(base), Repo: repo, CommonDir: common, Created: time.Now().UTC()}
	if _, err := prompt.RunGit(ctx, repo, "worktree", "add", "--quiet", "-b", branch, "--", path, wt.Base); err != nil {
		if _, berr := prompt.RunGit(ctx, repo, "rev-parse", "--verify", "--quiet", "--end-of-options", "refs/heads/"+branch); berr == nil {
			return Worktree{}, fmt.Errorf("%w: the branch %s was made meanwhile in %s: %v", ErrExists, branch, repo, err)
		}
		return Worktree{}, fmt.Errorf("worktree %s: %w", name, err)
	}
	if wt.Path, err = filepath.EvalSymlinks(path); err != nil {
		return Worktree{}, fmt.Errorf("worktree %s: %w", name, err)
	}
	gd, err := prompt.RunGit(ctx, wt.Path, "rev-parse", "--path-format=absolute", "--git-dir")
	if err != nil {
		return Worktree{}, fmt.Errorf("worktree %s: %w", name, err)
	}
	if wt.GitDir, err = filepath.EvalSymlinks(strings.TrimSpace(gd)); err != nil {
		return Worktree{}, fmt.Errorf("worktree %s: %w", name, err)
	}
	// An empty config.worktree, so that the sandbox can keep it read-only
	// as a file that exists (git reads it only with extensions.worktreeConfig).
	if err := os.WriteFile(filepath.Join(wt.GitDir, "config.worktree"), nil, 0o644); err != nil {
		return Worktree{}, fmt.Errorf("worktree %s: %w", name, err)
	}
	if err := writeRecord(proj, wt); err != nil {
		return Worktree{}, err
	}
	return wt, nil
}

// createMu makes Create's check-then-add one step among this process's
// goroutines (CreateFree's callers may run at once).
var createMu sync.Mutex

// CreateFree is Create with the first free name of name, name-2, name-3, …
// (a subagent's worktree: the name need not be the one asked for). It is
// safe for concurrent use: calls at once get different names.
func (m *Manager) CreateFree(ctx context.Context, dir, name string) (Worktree, error) {
	if err := ValidName(name); err != nil {
		return Worktree{}, err
	}
	for i := 1; i <= 1000; i++ {
		n := name
		if i > 1 {
			n = fmt.Sprintf("%s-%d", name, i)
			if len(n) > maxName {
				n = fmt.Sprintf("%s-%d", name[:maxName-len(fmt.Sprint(i))-1], i)
			}
		}
		wt, err := m.Create(ctx, dir, n)
		if !errors.Is(err, ErrExists) {
			return wt, err
		}
	}
	return Worktree{}, fmt.Errorf("%w: no free name after %s-1000", ErrExists, name)
}

// Open returns the worktree name of the repository around dir, from its
// record: ErrNotFound when there is none, or when its checkout is gone.
func (m *Manager) Open(ctx context.Context, dir, name string) (Worktree, error) {
	if err := ValidName(name); err != nil {
		return Worktree{}, err
	}
	repo, _, err := Repository(ctx, dir)
	if err != nil {
		return Worktree{}, err
	}
	wt, err := readRecord(m.projectDir(repo), name)
	if err != nil {
		return Worktree{}, err
	}
	if wt.Missing {
		return Worktree{}, fmt.Errorf("%w: %s (its checkout %s is gone)", ErrNotFound, name, wt.Path)
	}
	return wt, nil
}

// List returns the worktrees of the repository around dir, by name; one
// whose checkout is gone is listed with Missing set.
func (m *Manager) List(ctx context.Context, dir string) ([]Worktree, error) {
	repo, _, err := Repository(ctx, dir)
	if err != nil {
		return nil, err
	}
	proj := m.projectDir(repo)
	entries, err := os.ReadDir(proj)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("worktree: %w", err)
	}
	var out []Worktree
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !e.Type().IsRegular() || ValidName(name) != nil {
			continue
		}
		wt, err := readRecord(proj, name)
		if err != nil {
			continue
		}
		out = append(out, wt)
	}
	slices.SortFunc(out, func(a, b Worktree) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// recordPath is the record of worktree name in the project directory proj.
func recordPath(proj, name string) string { return filepath.Join(proj, name+".json") }

// writeRecord writes wt's record (0600, by temp file and rename).
func writeRecord(proj string, wt Worktree) error {
	b, err := json.MarshalIndent(wt, "", "  ")
	if err != nil {
		return err
	}
	tmp := recordPath(proj, wt.Name) + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("worktree %s: %w", wt.Name, err)
	}
	if err := os.Rename(tmp, recordPath(proj, wt.Name)); err != nil {
		return fmt.Errorf("worktree %s: %w", wt.Name, err)
	}
	return nil
}

// readRecord reads the record of worktree name in proj, marking it Missing
// when its checkout is no directory any more.
func readRecord(proj, name string) (Worktree, error) {
	b, err := os.ReadFile(recordPath(proj, name))
	if errors.Is(err, os.ErrNotExist) {
		return Worktree{}, fmt.Errorf("%w: %s", ErrNotFound, name)
	}
	if err != nil {
		return Worktree{}, fmt.Errorf("worktree %s: %w", name, err)
	}
	var wt Worktree
	if err := json.Unmarshal(b, &wt); err != nil {
		return Worktree{}, fmt.Errorf("worktree %s: its record %s: %w", name, recordPath(proj, name), err)
	}
	if wt.Name != name || filepath.Base(wt.Path) != name || !filepath.IsAbs(wt.Path) {
		return Worktree{}, fmt.Errorf("worktree %s: its record %s names %q at %s", name, recordPath(proj, name), wt.Name, wt.Path)
	}
	if fi, err := os.Lstat(wt.Path); err != nil || !fi.IsDir() {
		wt.Missing = true
	}
	return wt, nil
}
