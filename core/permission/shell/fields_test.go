package shell

import (
	"reflect"
	"strings"
	"testing"
)

// TestCommandFields checks every field of single commands exactly, where
// the compact rendering of the adversarial table could hide a difference.
func TestCommandFields(t *testing.T) {
	cases := []struct {
		src  string
		want Command
	}{
		{`git commit -m "fix: a b"`, Command{
			Words: []string{"git", "commit", "-m", "fix: a b"}, Literal: true,
			Text: "git commit -m 'fix: a b'"}},
		{`LC_ALL=C timeout 5 env -i A="x y" grep -r foo . 2>&1 >out`, Command{
			Words: []string{"grep", "-r", "foo", "."}, Assigns: []string{"LC_ALL=C", `A="x y"`},
			Wrappers: []string{"timeout", "env"}, Literal: true, Text: "grep -r foo .",
			Outer:     []string{"timeout", "5", "env", "-i", "A=x y", "grep", "-r", "foo", "."},
			Redirects: []Redirect{{Op: "2>&", Target: "1", Literal: true}, {Op: ">", Target: "out", Literal: true, Write: true}}}},
		{`echo "$HOME" 'a b' $'\x41\101\u00e9'`, Command{
			Words: []string{"echo", `"$HOME"`, "a b", "AAé"}, Text: `echo "$HOME" 'a b' AAé`}},
		{"cat <<'EOF' 3<>rw\nbody $x\nEOF\n", Command{
			Words: []string{"cat"}, Literal: true, Text: "cat",
			Redirects: []Redirect{{Op: "<<", Literal: true}, {Op: "3<>", Target: "rw", Literal: true, Write: true}}}},
		{"x=1 y=$(id)", Command{Assigns: []string{"x=1", "y=$(id)"}}},
		{"time nice -n 5 make", Command{Words: []string{"make"}, Wrappers: []string{"time", "nice"}, Literal: true, Text: "make",
			Outer: []string{"nice", "-n", "5", "make"}}},
		{"[[ $a == b* ]]", Command{Words: []string{"[[", "$a", "==", "b*", "]]"}, Text: "[[ $a == b* ]]"}},
		{"'if' x", Command{Words: []string{"if", "x"}, Literal: true, Text: "'if' x"}},
		{"'a=b' c", Command{Words: []string{"a=b", "c"}, Literal: true, Text: "'a=b' c"}},
		{"echo '{a,b}' '' '#x' '~'", Command{Words: []string{"echo", "{a,b}", "", "#x", "~"}, Literal: true, Text: "echo '{a,b}' '' '#x' '~'"}},
	}
	for _, tc := range cases {
		a := Analyze(tc.src)
		if len(a.Commands) == 0 {
			t.Errorf("Analyze(%q): no commands, risks %q", tc.src, a.Risks)
			continue
		}
		got := a.Commands[0]
		if !reflect.DeepEqual(normalize(got), normalize(tc.want)) {
			t.Errorf("Analyze(%q).Commands[0]:\n got  %#v\n want %#v", tc.src, got, tc.want)
		}
	}
}

// normalize makes empty slices nil so DeepEqual compares contents.
func normalize(c Command) Command {
	if len(c.Words) == 0 {
		c.Words = nil
	}
	if len(c.Assigns) == 0 {
		c.Assigns = nil
	}
	if len(c.Wrappers) == 0 {
		c.Wrappers = nil
	}
	if len(c.Redirects) == 0 {
		c.Redirects = nil
	}
	return c
}

func TestLongInput(t *testing.T) {
	src := strings.Repeat("echo x && ", 2000) + "rm y"
	a := Analyze(src)
	if len(a.Commands) != 2001 || a.Commands[2000].Text != "rm y" || len(a.Risks) != 0 {
		t.Fatalf("got %d commands, last %q, risks %q", len(a.Commands), a.Commands[len(a.Commands)-1].Text, a.Risks)
	}
	long := "echo " + strings.Repeat("a", 100000)
	if a := Analyze(long); len(a.Commands) != 1 || len(a.Commands[0].Words[1]) != 100000 {
		t.Fatalf("long word lost")
	}
}

func TestNestingLimit(t *testing.T) {
	src := "ls"
	for range maxDepth + 2 {
		src = "eval " + quoteWord(src, false)
	}
	a := Analyze(src)
	if !contains(a.Risks, "nesting too deep") {
		t.Fatalf("risks %q, want nesting too deep", a.Risks)
	}
}

func TestWritePaths(t *testing.T) {
	cases := []struct {
		src  string
		want []string
	}{
		{"echo hi > out.txt", []string{"out.txt"}},
		{"make >> log 2> err &> all <> rw >| clob", []string{"log", "err", "all", "rw", "clob"}},
		{"ls > /dev/null 2>/dev/stderr >/dev/stdout 3>/dev/./null 4>/dev//stderr", nil},
		{"ls 3>/dev/fd/3", []string{"/dev/fd/3"}},
		{"ls > /dev/fd/../../etc/passwd", []string{"/dev/fd/../../etc/passwd"}},
		{"ls > /dev//null/..", []string{"/dev//null/.."}},
		{"ls > /dev/null/../sda", []string{"/dev/null/../sda"}},
		{"ls > /dev/stdout/../../x", []string{"/dev/stdout/../../x"}},
		{"ls > ../../dev/null", []string{"../../dev/null"}},
		{"ls > dev/null", []string{"dev/null"}},
		{"ls > /dev/tty", []string{"/dev/tty"}},
		{"ls > /dev/fd/1 2> /proc/self/fd/2", []string{"/dev/fd/1", "/proc/self/fd/2"}},
		{"ls 2>&1 >&2 3>&-", nil},
		{"echo x >&out", []string{"out"}},
		{"cat < in <<< x", nil},
		{"{ a; b; } > same; c > same", []string{"same"}},
		{`echo > "$F" > 'lit'`, []string{"lit"}},
		{"echo $(ls > inner)", []string{"inner"}},
		{"bash -c 'echo x > nested'", []string{"nested"}},
		{"make > >(tee log)", nil},
		{"cat <<EOF > gen.sh\nx\nEOF\n", []string{"gen.sh"}},
	}
	for _, tc := range cases {
		got := WritePaths(Analyze(tc.src))
		if !equalStrings(got, tc.want) {
			t.Errorf("WritePaths(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}

func TestWordHelpers(t *testing.T) {
	for in, want := range map[string]string{
		`a\tb`: "a\tb", `\e[0m`: "\x1b[0m", `\x41\x4g`: "A\x04g", `\101\0`: "A\x00", `\u263a`: "☺",
		`\U0001F600`: "😀", `\cA`: "\x01", `\'\"\\\?`: `'"\?`, `\q`: `\q`, `end\`: `end\`,
	} {
		if got := ansiC(in); got != want {
			t.Errorf("ansiC(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"ls": "ls", "a b": "'a b'", "": "''", "it's": `"it's"`, "x=1": "x=1", "{}": "{}",
		"{a,b}": "'{a,b}'", "#c": "'#c'", "~": "'~'", "a\tb": `$'a\tb'`, "*": "'*'",
	} {
		if got := quoteWord(in, false); got != want {
			t.Errorf("quoteWord(%q) = %q, want %q", in, got, want)
		}
	}
	if got := quoteWord("x=1", true); got != "'x=1'" {
		t.Errorf("quoteWord(x=1, first) = %q", got)
	}
}

// TestPathological checks that deep or repetitive input is bounded.
func TestPathological(t *testing.T) {
	cases := []struct {
		src   string
		cmds  int
		risks []string
	}{
		{strings.Repeat("echo $(", 300) + "id" + strings.Repeat(")", 300), 301, nil},
		{strings.Repeat("xargs ", 5000) + "ls", maxDepth + 1, []string{"nesting too deep"}},
		{strings.Repeat("timeout 1 ", 5000) + "ls", 1, nil},
		{strings.Repeat("sudo nice ", 2000) + "bash -c ls", 2, nil},
		{strings.Repeat("{ ", 1000) + "ls" + strings.Repeat("; }", 1000), 1, nil},
		{strings.Repeat("eval ", 3000) + "ls", maxDepth + 1, []string{"nesting too deep"}},
		{"echo " + strings.Repeat("{a,", 10000), 1, nil},
	}
	for _, tc := range cases {
		a := Analyze(tc.src)
		if len(a.Commands) != tc.cmds || !equalStrings(a.Risks, tc.risks) {
			t.Errorf("Analyze(%.40q...): %d commands, risks %q; want %d, %q", tc.src, len(a.Commands), a.Risks, tc.cmds, tc.risks)
		}
	}
}

func TestHarmlessTarget(t *testing.T) {
	for p, want := range map[string]bool{
		"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true, "/dev/./null": true, "/dev//null": true,
		"//dev/null": true, "/dev/null/": true, "/tmp/../dev/null": true, "/dev/fd/../null": true,
		"/dev/fd/1": false, "/dev/fd/2": false, "/dev/fd/../../../x": false, "/dev//null/..": false,
		"/dev/null/../sda": false, "/dev/tty": false, "/dev/zero": false, "/dev": false, "dev/null": false,
		"../dev/null": false, "": false, "/dev/nul": false, "/dev/null0": false, "/proc/self/fd/1": false,
		"/dev/stdin": false, "/dev/stdout/../../etc/passwd": false,
	} {
		if got := HarmlessTarget(p); got != want {
			t.Errorf("HarmlessTarget(%q) = %v, want %v", p, got, want)
		}
	}
}
