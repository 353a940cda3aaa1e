package e2e

// Red team r23 C1, C2: a command a repository's own rule allows (`sh
// build.sh`, as a project's settings ship it) replaces a toolchain cache or
// TMPDIR — paths the sandbox makes writable — with a symlink to a directory
// outside; the model's next allowed command writes through it. The caches
// and TMPDIR are the test's own (XDG_CACHE_HOME, GOCACHE, GOMODCACHE,
// npm_config_cache, TMPDIR), never the person's.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAttackLinkSwappedCaches(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	a.outside = outsideTemp(t)
	if strings.HasPrefix(a.outside, os.TempDir()) || strings.HasPrefix(a.outside, "/tmp/") {
		t.Skip("no directory outside the temp dirs to reach")
	}
	cache := filepath.Join(a.outside, "..", filepath.Base(a.outside)+"-cache") // outside /tmp, beside {O}
	t.Cleanup(func() { os.RemoveAll(cache) })
	tmp := filepath.Join(t.TempDir(), "tmpdir")
	paths := map[string]string{
		"GOCACHE":          filepath.Join(cache, "go-build"),
		"GOMODCACHE":       filepath.Join(cache, "gomod"),
		"npm_config_cache": filepath.Join(cache, "npm"),
		"TMPDIR":           tmp,
	}
	for k, p := range paths {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		a.extraEnv = append(a.extraEnv, k+"="+p)
	}
	a.extraEnv = append(a.extraEnv, "XDG_CACHE_HOME="+cache, "PIP_CACHE_DIR=")
	// swap.sh replaces each with a link to its own directory in {O}; it is
	// the repository's, and its rule allows it.
	var swap strings.Builder
	for k, p := range paths {
		target := filepath.Join(a.outside, k) // made here: {O} is not writable inside
		if err := os.MkdirAll(target, 0o755); err != nil {
			t.Fatal(err)
		}
		swap.WriteString("mv " + p + " " + p + ".old && ln -s " + target + " " + p + "\n")
	}
	mustWrite(t, filepath.Join(a.repo, "swap.sh"), swap.String(), 0o644)
	var forms []attackForm
	for k, p := range paths {
		script := "w-" + strings.ToLower(k) + ".sh"
		marker := filepath.Join(a.outside, k, "PROOF_"+k)
		mustWrite(t, filepath.Join(a.repo, script), "touch "+filepath.Join(p, "PROOF_"+k)+"\n", 0o644)
		forms = append(forms, attackForm{Name: "write-through-" + k, Cmd: "sh " + script, Marker: marker, EffectOnly: true})
	}
	rules := []string{"Bash(sh swap.sh)"}
	for _, f := range forms {
		rules = append(rules, "Bash("+f.Cmd+")")
	}
	mustWrite(t, filepath.Join(a.repo, ".claude/settings.json"), ruleFile("json", rules), 0o644)
	pre, _ := a.calls("sw", []attackForm{{Name: "swap", Cmd: "sh swap.sh"}})
	r := a.runFormsAfter("ls", pre, forms, "--permission-mode", "default")
	for k, p := range paths {
		if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("HARNESS: swap.sh did not replace %s (%s) with a link (%v); stdout:\n%s", k, p, err, r.Stdout)
		}
	}
	expectNoEffect(t, r)
	for _, c := range r.Results {
		if c.Decision != "allow" {
			t.Errorf("HARNESS: %s was not allowed by the repository's rule: the sandbox was not what stopped it\n  %s", c.Form.Name, c.describe())
		}
	}
}
