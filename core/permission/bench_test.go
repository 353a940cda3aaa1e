package permission

import "testing"

// BenchmarkEvaluateBash is the permission decision for one compound shell command
// against a handful of rules: parse, split, match, decide.
func BenchmarkEvaluateBash(b *testing.B) {
	rules := RuleSet{}
	for _, s := range []string{"Bash(npm run test:*)", "Bash(git log:*)", "Bash(go test:*)"} {
		r, err := ParseRule(s)
		if err != nil {
			b.Fatal(err)
		}
		rules = rules.Add(Allow, r)
	}
	deny, _ := ParseRule("Bash(git push:*)")
	rules = rules.Add(Deny, deny)
	in := Input{Tool: "Bash", Kind: KindExecute, Workspace: "/w",
		Command: `cd sub && go test ./... 2>&1 | tee /tmp/out.txt && git log --oneline -5 | head -3 && echo "$(git status --short)"`}
	b.ReportAllocs()
	for b.Loop() {
		_ = Evaluate(ModeDefault, rules, in)
	}
}
