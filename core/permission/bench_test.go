package permission

import (
	"os"
	"path/filepath"
	"testing"
)

// benchRules are a handful of rules: three allow, one deny.
func benchRules(b *testing.B) RuleSet {
	rules := RuleSet{}
	for _, s := range []string{"Bash(npm run test:*)", "Bash(git log:*)", "Bash(go test:*)"} {
		r, err := ParseRule(s)
		if err != nil {
			b.Fatal(err)
		}
		rules = rules.Add(Allow, r)
	}
	deny, _ := ParseRule("Bash(git push:*)")
	return rules.Add(Deny, deny)
}

// benchCommand is a 6-part compound command (cd, go test, tee, git log, head,
// echo with a substitution running git status).
const benchCommand = `cd sub && go test ./... 2>&1 | tee /tmp/out.txt && git log --oneline -5 | head -3 && echo "$(git status --short)"`

// BenchmarkEvaluateBash is the permission decision for one compound shell command
// against a handful of rules: parse, split, match, decide (the workspace does not
// exist, so resolving symlinks stops at the first component).
func BenchmarkEvaluateBash(b *testing.B) {
	rules := benchRules(b)
	in := Input{Tool: "Bash", Kind: KindExecute, Workspace: "/w", Command: benchCommand}
	b.ReportAllocs()
	for b.Loop() {
		_ = Evaluate(ModeDefault, rules, in)
	}
}

// BenchmarkEvaluateBashRealWorkspace is BenchmarkEvaluateBash in a workspace
// that exists, so every path a part names is resolved through the file system
// (one lstat per component, memoised per evaluation).
func BenchmarkEvaluateBashRealWorkspace(b *testing.B) {
	rules := benchRules(b)
	ws := b.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "sub", ".git"), 0o755); err != nil {
		b.Fatal(err)
	}
	in := Input{Tool: "Bash", Kind: KindExecute, Workspace: ws, Command: benchCommand}
	b.ReportAllocs()
	for b.Loop() {
		_ = Evaluate(ModeDefault, rules, in)
	}
}

// BenchmarkEvaluateBashProjectOnly is the decision on a command a
// repository's rule allows, against BenchmarkEvaluateBash's rules read from
// a workspace file: allowed, then decided again without them (projectOnly).
func BenchmarkEvaluateBashProjectOnly(b *testing.B) {
	rules := benchRules(b)
	for i := range rules.Allow {
		rules.Allow[i].Project = true
	}
	in := Input{Tool: "Bash", Kind: KindExecute, Workspace: "/w", Command: "go test ./... && git log --oneline -5"}
	if d := Evaluate(ModeDefault, rules, in); !d.ProjectOnly {
		b.Fatalf("not ProjectOnly: %+v", d)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = Evaluate(ModeDefault, rules, in)
	}
}

// BenchmarkEvaluateBashPersonRule is BenchmarkEvaluateBashProjectOnly's
// command with the rules the person's own: one evaluation.
func BenchmarkEvaluateBashPersonRule(b *testing.B) {
	rules := benchRules(b)
	in := Input{Tool: "Bash", Kind: KindExecute, Workspace: "/w", Command: "go test ./... && git log --oneline -5"}
	b.ReportAllocs()
	for b.Loop() {
		_ = Evaluate(ModeDefault, rules, in)
	}
}
