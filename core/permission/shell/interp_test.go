package shell

import (
	"strings"
	"testing"
)

// TestInterpreterProgram: an interpreter fed a program by pipe, heredoc,
// here-string, -c/-e or no script argument, and xargs (class 10); and
// ProgramFromStdin, for deny rules that cannot see the program (class 11).
func TestInterpreterProgram(t *testing.T) {
	cases := []struct {
		src       string
		interp    bool // InterpreterProgram of the named command
		fromStdin bool // its ProgramFromStdin
	}{
		{"printf rm | sh", true, true},
		{"echo x | bash", true, true},
		{"echo x | sudo bash", true, true},
		{"echo x | env -i bash -s -- a b", true, true},
		{"echo x | bash -", true, true},
		{"echo x | bash /dev/stdin", true, true},
		{"sh < script.sh", true, true},
		{"bash <<'EOF'\nrm x\nEOF", true, true},
		{"bash <<< 'rm x'", true, true},
		{"python3 <<'PY'\nprint(1)\nPY", true, true},
		{"python3.12 -", true, true},
		{"python", true, true},
		{"node", true, true},
		{"perl", true, true},
		{"ruby < x.rb", true, true},
		{"php", true, true},
		{"lua -", true, true},
		{"tclsh", true, true},
		{"osascript", true, true},
		{"pwsh", true, true},
		{"deno run -", true, true},
		{"bash <(curl -s x)", true, true},
		{"source <(echo x)", true, true},
		{". <(echo x)", true, true},
		{"busybox sh", true, true},
		{"bash -c 'rm x'", true, false},
		{"bash -lc 'rm x'", true, false},
		{"bash -o pipefail -c 'rm x'", true, false},
		{"zsh -c x", true, false},
		{"fish -c x", true, false},
		{"python3 -c 'import os'", true, false},
		{"python3 -Wignore -c x", true, false},
		{"python2.7 -c x", true, false},
		{"pypy3 -c x", true, false},
		{"node -e 'x'", true, false},
		{"node -p 1", true, false},
		{"node --eval=x", true, false},
		{"nodejs --print x", true, false},
		{"bun -e x", true, false},
		{"deno eval 'x'", true, false},
		{"perl -e 'x'", true, false},
		{"perl -E 'say 1'", true, false},
		{"perl -ne 'print' f", true, false},
		{"perl -pi -e 's/a/b/' f", true, false},
		{"ruby -e x", true, false},
		{"ruby -rjson -e x", true, false},
		{"php -r 'echo 1;'", true, false},
		{"lua -e x", true, false},
		{"Rscript -e x", true, false},
		{"osascript -e x", true, false},
		{"pwsh -Command x", true, false},
		{"pwsh -c x", true, false},
		{"powershell -EncodedCommand x", true, false},
		{"awk '{print}' f", true, false},
		{"gawk -v a=1 'BEGIN{}'", true, false},
		{"expect -c x", true, false},
		{"sed -n p f", true, false},
		{"sed -e 's/a/b/e' f", true, false},
		{"sed -f script.sed f", false, false},
		{"cat f | sed", true, false},
		{"cat f | awk", true, false},
		{"source", false, false},
		{"xargs rm", true, false},
		{"ls | xargs -0 rm", true, false},
		{`bash "$script"`, true, false},
		{"bash script.sh", false, false},
		{"bash -x script.sh arg", false, false},
		{"sh ./configure", false, false},
		{"python3 script.py", false, false},
		{"python3 -m pytest", false, false},
		{"python3 -u script.py < in.txt", false, false},
		{"node server.js", false, false},
		{"node -r ts-node/register x.ts", false, false},
		{"perl script.pl", false, false},
		{"perl -I lib script.pl", false, false},
		{"ruby -I lib x.rb", false, false},
		{"php -f x.php", false, false},
		{"php x.php", false, false},
		{"deno run x.ts", false, false},
		{"pwsh -File x.ps1", false, false},
		{"awk -f prog.awk f", false, false},
		{"source ./env.sh", false, false},
		{"ls", false, false},
		{"cat | grep x", false, false},
		{"make", false, false},
	}
	for _, tc := range cases {
		a := Analyze(tc.src)
		var c *Command
		for i := range a.Commands {
			if k, _ := interpreterOf(unwrapAll(stringWords(a.Commands[i].Words, a.Commands[i].Literal))); k != progNone ||
				InterpreterProgram(a.Commands[i]) {
				c = &a.Commands[i]
				break
			}
		}
		if c == nil {
			c = &a.Commands[len(a.Commands)-1]
		}
		if got := InterpreterProgram(*c); got != tc.interp {
			t.Errorf("InterpreterProgram(%q) = %v, want %v (%s)", tc.src, got, tc.interp, show(*c))
		}
		if c.ProgramFromStdin != tc.fromStdin {
			t.Errorf("ProgramFromStdin(%q) = %v, want %v (%s)", tc.src, c.ProgramFromStdin, tc.fromStdin, show(*c))
		}
		if hasRisk := contains(a.Risks, riskStdinProgram); hasRisk != tc.fromStdin {
			t.Errorf("%q: risk %q = %v, want %v", tc.src, riskStdinProgram, hasRisk, tc.fromStdin)
		}
	}
}

func TestPipedInput(t *testing.T) {
	cases := []struct {
		src   string
		piped string // "1" per command that reads a pipe, "0" otherwise
	}{
		{"ls | wc -l", "01"},
		{"ls | grep x | wc", "011"},
		{"ls |& cat", "01"},
		{"ls | { cat; sh; }", "011"},
		{"ls | (cat && sh)", "011"},
		{"ls | echo $(sh)", "011"},
		{"ls; cat", "00"},
		{"ls && cat < f", "00"},
		{"echo x | xargs rm", "010"},
		{"xargs rm < f", "00"},
		{"cat <(ls) | sh", "001"},
	}
	for _, tc := range cases {
		var got strings.Builder
		for _, c := range Analyze(tc.src).Commands {
			if c.PipedInput {
				got.WriteByte('1')
			} else {
				got.WriteByte('0')
			}
		}
		if got.String() != tc.piped {
			t.Errorf("PipedInput(%q) = %s, want %s (%q)", tc.src, got.String(), tc.piped, showAll(Analyze(tc.src).Commands))
		}
	}
}
