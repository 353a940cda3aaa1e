package app

import (
	"os/exec"
	"strings"
	"testing"
)

// heavyInit are packages whose init does work that every pincer process —
// the sandbox helper re-executed for each sandboxed command, `--version`,
// the store daemon — would pay before main, and that pincer has lazy
// replacements for (docs/BENCHMARKS.md, "Issue 19: start-up").
var heavyInit = map[string]string{
	"github.com/alecthomas/chroma/v2/lexers":   "registers ~300 lexers in init (~4.8 ms): use pincer/ui/tui/markdown/lazylex",
	"github.com/alecthomas/chroma/v2/styles":   "registers every style in init: build styles from the theme (themes.ChromaStyle)",
	"github.com/santhosh-tekuri/jsonschema/v6": "compiles every draft's meta-schemas in init (~2.5 ms): use github.com/google/jsonschema-go",
}

// TestNoHeavyInit checks that the pincer binary (the module's main package) links none of heavyInit.
func TestNoHeavyInit(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "pincer").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if why, ok := heavyInit[pkg]; ok {
			t.Errorf("pincer links %s, which %s", pkg, why)
		}
	}
}
