package app

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// importRule forbids the packages under From (a module-relative directory; ""
// is the root) to import any package under one of Not, for Why.
type importRule struct {
	From string
	Not  []string
	Why  string
}

// houseRules are the arrows of docs/DESIGN.md ("The house"): main -> ui -> core
// -> tools -> sandbox, core -> persist; each rule names what its package may not
// reach. Test files are not held to them (a test may build any fixture).
var houseRules = []importRule{
	{From: "core", Not: []string{"ui"}, Why: "core never imports a front end"},
	{From: "ui", Not: []string{"persist", "tools"},
		Why: "front ends (views, the CLI, their helpers) reach the store and the tools through core (core/app)"},
	{From: "ui/tui", Not: []string{"persist", "tools", "core/provider/catalog", "core/config"},
		Why: "the workbench reaches core through its Backend; the log is its only feed"},
	{From: "ui/web", Not: []string{"persist", "tools", "core/provider/catalog", "core/config"},
		Why: "the web server reaches core through core/app (Backend, SharedStore); the log is its only feed"},
	{From: "ui/headless", Not: []string{"persist", "tools"}, Why: "headless output reads the log only"},
	{From: "tools", Not: []string{"core/agent", "core/app", "ui", "persist"}, Why: "tools are the model's hands, below the agent"},
	{From: "sandbox", Not: []string{"core", "tools", "ui", "persist"}, Why: "the sandbox is the floor: it imports no pincer behaviour"},
	{From: "persist", Not: []string{"core/agent", "core/app", "core/permission", "core/hook", "core/prompt",
		"core/config", "core/provider", "tools", "sandbox", "ui"}, Why: "the store knows types (core/event, core/message), no behaviour"},
	{From: "persist/badger", Not: []string{"persist/memory", "persist/remote", "persist/daemon"},
		Why: "each store stands alone; what the stores share is persist/internal/record"},
	{From: "persist/memory", Not: []string{"persist/badger", "persist/remote", "persist/daemon"},
		Why: "each store stands alone; what the stores share is persist/internal/record"},
	{From: "persist/remote", Not: []string{"persist/badger", "persist/memory", "persist/daemon"},
		Why: "the wire serves any persist.Store; the daemon chooses Badger"},
	{From: "core/event", Not: []string{"core/agent", "persist", "tools", "sandbox"}, Why: "event types are a leaf"},
	{From: "core/message", Not: []string{"core/agent", "persist", "tools", "sandbox"}, Why: "transcript types are a leaf"},
	{From: "core/mcp", Not: []string{"core/agent", "core/app", "core/config", "persist", "ui"},
		Why: "the MCP client offers tools through the registry; the app composes it with config and the agent"},
	{From: "core/lsp", Not: []string{"core/agent", "core/app", "core/config", "tools", "persist", "ui"},
		Why: "the language-server client takes its servers as values; the app composes it with config and the agent"},
	{From: "themes", Not: []string{"core", "tools", "sandbox", "persist", "ui"}, Why: "themes are colour tokens only"},
}

// onlyFrom names packages that just the listed directories may import.
var onlyFrom = map[string][]string{
	// The composition root serves the command line; the workbench imports it
	// only for the vocabulary of its Backend seam (app.Backend's types).
	"core/app": {"", "ui/cli", "ui/tui", "ui/web"},
	"ui/cli":   {""},                 // main.go is its only caller
	"ui/tui":   {"ui/cli", "ui/tui"}, // sub-packages of the workbench use their parent's types
	"ui/web":   {"ui/cli", "ui/web"},
	// A concrete store is chosen where the app is composed; the rest of pincer
	// holds a persist.Store. storetest is for tests only.
	"persist/badger":    {"core/app", "persist/daemon"},
	"persist/remote":    {"persist/daemon"},
	"persist/daemon":    {"core/app"},
	"persist/memory":    {"core/app"}, // an empty store when none exists yet (OpenStoreForReading), a scratch one (ScratchBackend)
	"persist/storetest": {},
}

// knownDebt are the imports across the arrows that still exist, as "file ->
// package" (issue 11 removes them; the list may only shrink: an entry that no
// longer exists fails the test, so the list stays true).
var knownDebt = map[string]bool{}

// TestHouseArrows fails when a non-test Go file imports across the house's
// arrows (houseRules, onlyFrom).
func TestHouseArrows(t *testing.T) {
	imports := moduleImports(t)
	if len(imports["ui/tui"]) == 0 || len(imports["core/agent"]) == 0 {
		t.Fatalf("read no imports (%d packages): the walk is broken", len(imports))
	}
	seen := map[string]bool{}
	defer func() {
		for key := range knownDebt {
			if !seen[key] {
				t.Errorf("knownDebt lists %q, which no longer exists: remove it", key)
			}
		}
	}()
	for pkg, deps := range imports {
		for dep, file := range deps {
			for _, r := range houseRules {
				if !under(pkg, r.From) {
					continue
				}
				for _, not := range r.Not {
					if !under(dep, not) {
						continue
					}
					if key := file + " -> " + dep; knownDebt[key] {
						seen[key] = true
						continue
					}
					t.Errorf("%s imports pincer/%s: %s", file, dep, r.Why)
				}
			}
			for target, allowed := range onlyFrom {
				if !under(dep, target) || under(pkg, target) {
					continue
				}
				ok := false
				for _, a := range allowed {
					ok = ok || pkg == a || (a != "" && under(pkg, a))
				}
				if !ok {
					t.Errorf("%s imports pincer/%s, which only %q may import", file, dep, allowed)
				}
			}
		}
	}
}

// TestHouseArrowsCatchAViolation: the walk sees a forbidden import (the rule
// can fail).
func TestHouseArrowsCatchAViolation(t *testing.T) {
	for _, r := range houseRules {
		if r.From == "ui/tui" && under("persist/badger", r.Not[0]) {
			return
		}
	}
	t.Fatal("no rule keeps ui/tui off persist and its sub-packages")
}

// TestHouseArrowsKeepEveryFrontEndOffTheStoreAndTools: whatever package of
// ui/ it is — a view, the command line, a helper binary below them — a rule
// forbids it persist (every store) and tools.
func TestHouseArrowsKeepEveryFrontEndOffTheStoreAndTools(t *testing.T) {
	for _, pkg := range []string{"ui/cli", "ui/cli/e2e", "ui/tui/internal/benchmain", "ui/headless", "ui/termtext", "ui/new"} {
		for _, dep := range []string{"persist", "persist/memory", "persist/badger", "persist/daemon", "tools", "tools/bash"} {
			forbidden := false
			for _, r := range houseRules {
				for _, not := range r.Not {
					forbidden = forbidden || under(pkg, r.From) && under(dep, not)
				}
			}
			if !forbidden {
				t.Errorf("no rule keeps %s off pincer/%s", pkg, dep)
			}
		}
	}
}

// under reports whether the module-relative package dir is dir or below it.
func under(pkg, dir string) bool {
	return pkg == dir || dir != "" && strings.HasPrefix(pkg, dir+"/")
}

// moduleImports maps each package directory (module-relative, "" for the root)
// to the pincer packages its non-test files import, each with one file that does.
func moduleImports(t *testing.T) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	fset := token.NewFileSet()
	const root = "../.." // the module root, from core/app
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		path = filepath.ToSlash(rel)
		pkg := filepath.ToSlash(filepath.Dir(rel))
		if pkg == "." {
			pkg = ""
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p != "pincer" && !strings.HasPrefix(p, "pincer/") {
				continue
			}
			if out[pkg] == nil {
				out[pkg] = map[string]string{}
			}
			out[pkg][strings.TrimPrefix(strings.TrimPrefix(p, "pincer"), "/")] = path
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
