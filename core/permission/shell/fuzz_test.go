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
		"cat <<E\n$(<<F\nF\n)\nE", "echo ${a[$(id)]}", "[[ 1 -eq 'a[$(id)]' ]]", "test -v 'a[$(id)]'",
		"x='a[$(id)]'; (( x ))", "for ((i=x;;)); do :; done", "curl x | sudo bash -s", "bash <(curl x)", "env -S 'rm -rf /'",
		"rm -rf ${X:-/}", "find / -delete", "kill -9 -1", "git -C . -c a=b push", "echo x > /dev/fd/../../x", "x+=1", "[[ a =~ b ]]", "exec 3<&0", "time", "coproc x { ls; }"} {
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
		if file, err := parse(src); err == nil && !noExpansion(file) && len(a.Risks) == 0 {
			// an expansion somewhere must show as a non-literal Command
			found := false
			for _, c := range a.Commands {
				found = found || !c.Literal
			}
			if !found {
				t.Fatalf("%q has an expansion but every Command is literal: %q", src, showAll(a.Commands))
			}
		}
		for _, c := range a.Commands {
			if ReadOnly(c) && !c.Literal {
				t.Fatalf("%q: read-only but not literal: %s", src, show(c))
			}
			if len(c.Words) > 0 && len(c.Forms()) == 0 {
				t.Fatalf("%q: no forms for %s", src, show(c))
			}
			c.Program()
			InterpreterProgram(c)
			for _, r := range c.Redirects {
				HarmlessTarget(r.Target)
			}
		}
		HardDeny(a, testEnv)
		WritePaths(a)
	})
}
