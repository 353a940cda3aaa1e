package shell

import (
	"strings"
	"testing"
)

// FuzzAnalyze checks that Analyze never panics (it calls analyze, without
// the recover guard) and never reports a line that has statements as
// harmless by returning no Commands, no Risks and no Err.
func FuzzAnalyze(f *testing.F) {
	for _, tc := range adversarial {
		f.Add(tc.src)
	}
	for _, s := range []string{"case x in esac", "f() { :; }", "((", "$((", "${", "<<", "a=(1 2)", "declare -A m=([k]=v)",
		"cat <<E\n$(<<F\nF\n)\nE", "echo ${a[$(id)]}", "x+=1", "[[ a =~ b ]]", "exec 3<&0", "time", "coproc x { ls; }"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		a := analyze(src)
		if a.Err != nil && (len(a.Risks) == 0 || !strings.HasPrefix(a.Risks[0], riskParse)) {
			t.Fatalf("Err %v without a parse error risk: %q", a.Err, a.Risks)
		}
		if len(a.Commands) == 0 && len(a.Risks) == 0 && a.Err == nil {
			file, err := parse(src)
			if err != nil || len(file.Stmts) > 0 {
				t.Fatalf("%q: statements but no commands and no risks", src)
			}
		}
		for _, c := range a.Commands {
			ReadOnly(c)
		}
		HardDeny(a, testEnv)
		WritePaths(a)
	})
}
