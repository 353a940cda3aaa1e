package subagent

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestListing: the text the model chooses from, against testdata/listing.golden.
func TestListing(t *testing.T) {
	c := NewCatalog(append(Builtins(),
		Definition{Name: "reviewer", Description: "Reviews a diff.", Tools: []string{"Read", "Grep", "Agent", "Bash"}, DisallowedTools: []string{"Bash"}, Origin: OriginProject},
		Definition{Name: "fixer", Description: "Fixes lint.", DisallowedTools: []string{"Write", "TeamCreate"}, Isolation: IsolationWorktree, Origin: OriginUser},
		Definition{Name: "kit:none", Description: "Thinks.", Tools: []string{}, Origin: PluginOrigin("kit")},
	)...)
	got := c.Listing()
	golden := filepath.Join("testdata", "listing.golden")
	if *update {
		must(t, os.MkdirAll("testdata", 0o755))
		must(t, os.WriteFile(golden, []byte(got), 0o644))
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("listing:\n%s\nwant:\n%s", got, want)
	}
	if got != c.Listing() {
		t.Fatal("the listing is not stable")
	}
	if NewCatalog().Listing() != "" || (*Catalog)(nil).Listing() != "" {
		t.Fatal("an empty catalog lists something")
	}
}

func TestBuiltins(t *testing.T) {
	b := Builtins()
	names := []string{}
	for _, d := range b {
		names = append(names, d.Name)
		if d.Prompt == "" || d.Description == "" || d.Origin != OriginBuiltin {
			t.Errorf("%s: incomplete %+v", d.Name, d)
		}
	}
	if strings.Join(names, " ") != "general-purpose Explore Plan" {
		t.Fatalf("built-ins %q", names)
	}
	if b[0].Tools != nil || b[0].ReadOnly() {
		t.Error("general-purpose must have all of the parent's tools and its mode")
	}
	for _, d := range b[1:] {
		if !d.ReadOnly() {
			t.Errorf("%s is not read-only", d.Name)
		}
		for _, tool := range d.Tools {
			if tool == "Write" || tool == "Edit" {
				t.Errorf("%s has %s", d.Name, tool)
			}
		}
	}
	for _, level := range []string{"quick", "medium", "very thorough"} {
		if !strings.Contains(b[1].Prompt, level) || !strings.Contains(b[1].Description, level) {
			t.Errorf("Explore does not explain %q", level)
		}
	}
	b[1].Tools[0] = "Write"
	if Builtins()[1].Tools[0] == "Write" {
		t.Error("Builtins shares its slices between calls")
	}
}
