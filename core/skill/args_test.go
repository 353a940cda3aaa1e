package skill

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSplitArgs(t *testing.T) {
	cases := map[string][]string{
		"":                  nil,
		"a b":               {"a", "b"},
		`  "a b"  c `:       {"a b", "c"},
		`'it''s' x`:         {"its", "x"},
		`a\ b "q\"x" 'n\o'`: {"a b", `q"x`, `n\o`},
		`""`:                {""},
		"one\ttwo\nthree":   {"one", "two", "three"},
	}
	for in, want := range cases {
		if got := SplitArgs(in); !reflect.DeepEqual(got, want) {
			t.Errorf("SplitArgs(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSubstText(t *testing.T) {
	ctx := "GATHERED $0"
	cases := []struct {
		name, body, args string
		names            []string
		want             string
		used             bool
	}{
		{"all", "fix $ARGUMENTS now", "issue 12", nil, "fix issue 12 now", true},
		{"positional from 0, as Claude Code", "$1 then $0, $2.", "a b", nil, "b then a, .", true},
		{"$0 is the first word", "[$0]", `"x y" z`, nil, "[x y]", true},
		{"$N is $ARGUMENTS[N]", "$ARGUMENTS[1]=$1", "a b", nil, "b=b", true},
		{"many digits", "$10|$11", "0 1 2 3 4 5 6 7 8 9 ten", nil, "ten|", true},
		{"digits then a letter are no placeholder", "$1st $0_x", "a", nil, "$1st $0_x", false},
		{"indexed from 0", "$ARGUMENTS[0]/$ARGUMENTS[1]/$ARGUMENTS[7]", `x "y z"`, nil, "x/y z/", true},
		{"named", "file=$file focus=$focus $filex", "main.go speed", []string{"file", "focus"}, "file=main.go focus=speed $filex", true},
		{"unknown dollar kept", "cost $HOME $ARGUMENTSX $", "a", nil, "cost $HOME $ARGUMENTSX $", false},
		{"$N is positional, as Claude Code", "$5.00", "a", nil, ".00", true},
		{"skill dir", "see ${CLAUDE_SKILL_DIR}/ref.md", "", nil, "see /s/ref.md", false},
		{"context not re-substituted", "ctx: $CONTEXT", "A", nil, "ctx: GATHERED $0", false},
		{"argument values not re-substituted", "$0", "$2", nil, "$2", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &placeholders{args: c.args, list: SplitArgs(c.args), names: c.names, dir: "/s", context: &ctx}
			used := false
			if got := p.substText(c.body, &used); got != c.want || used != c.used {
				t.Errorf("got %q used=%v, want %q used=%v", got, used, c.want, c.used)
			}
		})
	}
}

// TestSubstShQuoting: every argument lands as data whatever its quoting
// context; each case runs in real bash and must print the argument back, and
// never create PROOF.
func TestSubstShQuoting(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	payloads := []string{
		"; touch PROOF", "`touch PROOF`", "$(touch PROOF)", "' ; touch PROOF ; '", `" ; touch PROOF ; "`,
		`\"; touch PROOF #`, "a | touch PROOF", "&& touch PROOF", "> PROOF", "$((1+1))$(touch PROOF)", "'\"'\"$(touch PROOF)",
		`\`, `\'`, "*", "~", "${IFS}touch${IFS}PROOF",
	}
	templates := []string{
		`printf %s $0`, `printf %s "$0"`, `printf %s '$0'`, `printf %s "x$0"y | tr -d xy`, `printf %s "$(printf %s "$0")"`,
		`printf %s $(printf %s "$0")`, `(printf %s $0)`, `printf %s "$(echo "$(printf %s $0)")"`,
		`printf %s $ARGUMENTS`, `printf %s "$ARGUMENTS[0]"`, `printf %s "$((1))$0"`, `printf %s "${X}$0"`,
	}
	for _, tmpl := range templates {
		for _, payload := range payloads {
			dir := t.TempDir()
			p := &placeholders{args: payload, list: []string{payload}}
			used := false
			cmd, ok := p.substSh(tmpl, &used)
			if !ok || !used {
				t.Fatalf("%q: substSh refused %q", tmpl, payload)
			}
			run := exec.Command(bash, "-c", cmd)
			run.Dir = dir
			out, _ := run.CombinedOutput()
			if _, err := os.Stat(filepath.Join(dir, "PROOF")); err == nil {
				t.Errorf("template %q with %q ran as shell: %s", tmpl, payload, cmd)
			}
			if strings.Contains(tmpl, "'$0'") || strings.Contains(tmpl, " $(printf") {
				continue // inside '...', or split by the unquoted $( ): data, but not printed back as one word
			}
			want := payload
			if strings.Contains(tmpl, "$((1))") {
				want = "1" + payload
			}
			if string(out) != want && !strings.Contains(tmpl, "echo") {
				t.Errorf("template %q with %q printed %q (command %s)", tmpl, payload, out, cmd)
			}
		}
	}
}

func TestSubstShRefusesExpansions(t *testing.T) {
	for _, tmpl := range []string{`echo "${X:-$0}"`, `echo ${X:-$0}`, `echo $(( $0 + 1 ))`, `echo "$(( $0 ))"`, `echo ${#ARGUMENTS} ${X/$0/y}`} {
		p := &placeholders{args: "a", list: []string{"a"}}
		used := false
		if got, ok := p.substSh(tmpl, &used); ok {
			t.Errorf("%q accepted: %s", tmpl, got)
		}
	}
	p := &placeholders{args: "a", list: []string{"a"}}
	used := false
	if got, ok := p.substSh(`echo ${X:-y} $(( 1 + 2 )) $0`, &used); !ok || got != `echo ${X:-y} $(( 1 + 2 )) 'a'` {
		t.Errorf("after closed expansions: %q %v", got, ok)
	}
}

func TestSubstShRefusesControl(t *testing.T) {
	for _, v := range []string{"a\ntouch PROOF", "a\rb", "a\x00b", "\x1b[2J", "a\tb"} {
		p := &placeholders{args: v, list: []string{v}}
		used := false
		if _, ok := p.substSh("echo $0 # $ARGUMENTS", &used); ok {
			t.Errorf("%q accepted", v)
		}
	}
	p := &placeholders{args: "a\nb"}
	used := false
	if got, ok := p.substSh("echo hi", &used); !ok || got != "echo hi" {
		t.Errorf("a command without placeholders: %q %v", got, ok)
	}
}
