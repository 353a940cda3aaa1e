package shell

import "testing"

// roCase is a command line and whether its first Command is read-only.
type roCase struct {
	src  string
	want bool
}

func checkReadOnly(t *testing.T, cases []roCase) {
	t.Helper()
	for _, tc := range cases {
		a := Analyze(tc.src)
		if len(a.Commands) == 0 {
			t.Errorf("Analyze(%q): no commands (risks %q)", tc.src, a.Risks)
			continue
		}
		all := true
		for _, c := range a.Commands {
			all = all && ReadOnly(c)
		}
		if all != tc.want {
			t.Errorf("ReadOnly(%q) = %v, want %v (commands %q)", tc.src, all, tc.want, showAll(a.Commands))
		}
	}
}

// usability are literal commands that must stay read-only (issue 10:
// usability does not pay for the fixes).
var usability = []roCase{
	{"git status", true}, {"git diff HEAD~1 -- a.go", true}, {"ls -la", true}, {"grep -rn foo .", true},
	{"rg -n foo", true}, {"find . -name '*.go'", true}, {"cat a | wc -l", true}, {`echo "hi" > /dev/null`, true},
	{"test -f go.mod", true}, {"[ -d x ]", true}, {`[[ -n "abc" ]]`, true}, {"git log --oneline -20", true},
	{"git show HEAD:go.mod", true}, {"git diff --stat", true}, {"git diff --text a b", true},
	{"git log --format='%h %s'", true}, {"git log --pretty=oneline", true}, {"git -C sub status", true},
	{"git --no-pager diff", true}, {"git branch -a", true}, {"rg -i -e foo -g '*.go'", true},
	{"rg --files", true}, {"rg -tgo foo", true}, {"rg -ez foo", true}, {"rg -- --pre", true},
	{"rg -e foo -- --pre", true}, {"find . -type f -newer go.mod", true}, {"find . -print0", true},
	{"find . -printf '%p\\n'", true}, {"head -n 20 f", true}, {"tail -n +2 f", true}, {"wc -c f", true},
	{"du -sh .", true}, {"stat -c %s f", true}, {"which go", true}, {"diff -u a b", true},
	{"ls > /dev/null 2>&1", true}, {"ls 2>/dev/stderr", true}, {"ls >/dev/stdout", true}, {"ls >&2", true},
	{"[[ 1 -eq 1 ]]", true}, {"[[ -1 -lt 2 ]]", true}, {"(( 1 + 2 ))", true}, {"let 1+2", false},
	{"[[ -v x ]]", true}, {"test -v HOME", true}, {"test 1 -eq 2", true}, {"[[ a == b ]]", true},
	{"[[ -f go.mod && -d .git ]]", true}, {"echo a | grep a | wc -l", true}, {"x=1", true},
	{"true", true}, {":", true}, {"command -v go", true}, {"timeout 5 grep -r x .", true},
	{"git branch --list 'feat*'", true}, {"cat <<'EOF'\n$(x) $((y))\nEOF", true}, {"cat <<EOF\nplain\nEOF", true},
	{"ls -la >/dev/./null", true},
}

func TestReadOnlyUsability(t *testing.T) {
	checkReadOnly(t, usability)
	t.Logf("%d literal read-only commands still read-only", len(usability))
}

// TestReadOnlyEvaluatedWords: bash evaluates array subscripts inside
// arithmetic, so literal-looking words run code (class 1).
func TestReadOnlyEvaluatedWords(t *testing.T) {
	checkReadOnly(t, []roCase{
		{"[[ 1 -eq 'a[$(touch PROOF)]' ]]", false},
		{`[[ 1 -eq "a[$(touch PROOF)]" ]]`, false},
		{`[[ 'a[$(id)]' -ne 0 ]]`, false},
		{"[[ x -eq 1 ]]", false},
		{"[[ 1 -lt x ]]", false},
		{"[[ 1 -le 0x1f ]]", false},
		{"[[ 1 -ge 16#ff ]]", false},
		{"[[ 2 -gt 1 && 1 -eq y ]]", false},
		{"[[ ( 1 -eq z ) ]]", false},
		{"[[ ! 1 -eq z ]]", false},
		{"[[ -v 'a[$(id)]' ]]", false},
		{"[[ -v a[x] ]]", false},
		{"[[ -R 'a[`id`]' ]]", false},
		{"test -v 'a[$(id)]'", false},
		{"[ -v 'a[$(id)]' ]", false},
		{"test -R 'r[$(id)]'", false},
		{"test 1 -eq 'a[$(id)]'", false},
		{"[ 'a[$(id)]' -lt 2 ]", false},
		{"command test -v 'a[$(id)]'", false},
		{"builtin test -v 'a[$(id)]'", false},
		{"timeout 1 [ -v 'a[$(id)]' ]", false},
		{"(( x ))", false},
		{"(( x + 1 ))", false},
		{"(( a[0] ))", false},
		{"(( 1 ? y : 2 ))", false},
		{"let x", false},
		{"let 'y = x'", false},
		{"builtin let x", false},
		{"for ((i=x; i<1; i++)); do :; done", false},
		{"for ((;;)); do break; done", false}, // break is not read-only
		{"while (( x )); do :; done", false},
		{"x='a[$(id)]'; (( x ))", false},
		{"echo $((x))", false},
		{"echo $[x]", false},
		{"echo ${a[x]}", false},
		{"ls ${a[x]}", false},
		{"echo ${!x}", false},
		{"echo ${x@P}", false},
		{"echo ${x:x}", false},
		{"echo ${x:$(id)}", false},
		{"echo ${#x}", false},
		{"echo ${x/a/b}", false},
		{"echo $x", false},
		{"echo ~", false},
		{"echo ~root", false},
		{"echo *", false},
		{"echo a?", false},
		{"echo [ab]", false},
		{"echo {a,b}", false},
		{"echo {1..3}", false},
		{"echo @(a|b)", false},
		{"echo <(id)", false},
		{"echo $(id)", false},
		{"echo `id`", false},
		{"cat <<EOF\n$((x))\nEOF", false},
		{"cat <<EOF\n$x\nEOF", false},
		{"cat <<< $((x))", false},
		{"cat <<< \"$x\"", false},
		{"cat < $f", false},
		{"cat < /dev/null$((x))", false},
		{"y=$((x)) ls", false},
		{"y=$((x))", false},
		{"y=$x ls", false},
		{"y=~ ls", false},
		{"printf -v 'a[$(id)]' x", false},
		{"read 'a[$(id)]'", false},
		{"unset 'a[$(id)]'", false},
		{"declare 'a[$(id)]=1'", false},
		{"declare -i y", false},
		{"mapfile 'a[$(id)]'", false},
		{"echo x >&$fd", false},
		{"nice -n $((x)) ls", false},
		{"for i in $((x)); do ls; done", false},
		{"for i in ${a[x]}; do :; done", false},
		{"select i in $((x)); do break; done", false},
		{"case $((x)) in 1) ls;; esac", false},
		{"case 1 in $((x))) ls;; esac", false},
		{"case $x in a) ls;; esac", false},
		{"for i in a b; do ls; done", true},
		{"case a in a) ls;; b|c) pwd;; esac", true},
		{"timeout -k $((x)) 5 ls", false},
		{"stdbuf -o $((x)) ls", false},
		{"env -u $((x)) ls", false},
		{"env -u ${!x} ls", false},
		{"command -p ls ${a[x]}", false},
		{"time -p ls $((x))", false},
	})
}

// TestReadOnlyRedirectTargets: only /dev/null, /dev/stdout and /dev/stderr
// after cleaning are harmless write targets (class 2).
func TestReadOnlyRedirectTargets(t *testing.T) {
	checkReadOnly(t, []roCase{
		{"echo x > /dev/fd/../../../tmp/PROOF", false},
		{"echo x > /dev/fd/3", false},
		{"echo x > /dev/fd/1", false},
		{"echo x 2> /dev/fd/2", false},
		{"echo x >/dev/./../tmp/PROOF", false},
		{"echo x > /dev//null/..", false},
		{"echo x > /dev/null/../sda", false},
		{"echo x > /dev/stdout/../../x", false},
		{"echo x >> /dev/tty", false},
		{"echo x > /proc/self/fd/1", false},
		{"echo x &> /dev/fd/../../x", false},
		{"echo x >| /dev/fd/../x", false},
		{"echo x <> /dev/fd/0", false},
		{"echo x >& /dev/fd/../x", false},
		{"echo x > ../dev/null", false},
		{"echo x > dev/null", false},
		{"> /dev/fd/../../x", false},
		{"{ echo x; } > /dev/fd/../x", false},
		{"cat < /dev/tcp/example/80", false},
		{"cat < /dev/./tcp/h/80", false},
		{"cat 0< /dev/udp/h/53", false},
		{"echo x > /dev/tcp/h/80", false},
		{"cat /dev/tcp/h/80", true}, // cat opens a file that does not exist
		{"echo x > /dev/./null", true},
		{"echo x > //dev//null", true},
		{"echo x 2>&1 >&2 3>&-", true},
	})
}

// TestReadOnlyFlagTables tries the disqualifying options of each program
// of the read-only set in many forms, and the programs kept out of it
// (class 3).
func TestReadOnlyFlagTables(t *testing.T) {
	checkReadOnly(t, []roCase{
		// rg
		{"rg --pre ./x foo", false}, {"rg --pre=./x foo", false}, {"rg --pre-glob '*.gz' --pre x foo", false},
		{"rg --pre-glob='*' foo", false}, {"rg --hostname-bin ./x foo", false}, {"rg --hostname-bin=./x foo", false},
		{"rg -z foo", false}, {"rg -iz foo", false}, {"rg -zi foo", false}, {"rg -nzi foo", false},
		{"rg --search-zip foo", false}, {"rg -i -- -z", false}, {"rg -e -- --pre x", false},
		{"rg -g -- --pre x", false}, {"rg --glob -- --pre x", false}, {"rg foo -- --pre", true},
		{"rg -e z foo", true}, {"rg -ez foo", true}, {"rg -Az 3 foo", true}, {"rg -tz foo", true},
		{"rg --no-search-zip foo", true}, {"rg --pretty foo", true},
		{"rg -L foo", false}, {"rg --follow foo", false}, {"rg -iL foo", false}, {"rg -e L foo", true},
		// following symbolic links while recursing, file lists read from a file
		{"grep -R foo .", false}, {"grep -rR foo .", false}, {"grep -nR foo .", false},
		{"grep --dereference-recursive foo .", false}, {"grep -r foo .", true}, {"grep -e R -r foo .", true},
		{"grep -eR foo", true}, {"grep -rn foo .", true},
		{"find -L . -name x", false}, {"find . -follow -name x", false}, {"find . -files0-from l", false},
		{"find . -name L", true},
		{"ls -LR /w", false}, {"ls -L x", false}, {"ls --dereference x", false}, {"ls -la", true}, {"ls -R", true},
		{"ls -I L", true},
		{"du -aL .", false}, {"du -L .", false}, {"du --dereference .", false}, {"du --files0-from=l", false},
		{"du -sh .", true}, {"du -d 1 .", true},
		{"wc --files0-from=l", false}, {"wc --files0-from l", false}, {"wc -l a", true},
		// GNU long options by any unambiguous prefix (red team r21 F1, F5); diff -r follows every link below
		{"grep --deref . q2", false}, {"grep --dereference-rec . q2", false}, {"grep --de x .", false},
		{"grep --devices=skip x f", true}, {"grep --directories=skip x f", true},
		{"wc --files0=l", false}, {"wc --files=l", false}, {"du --files0=l", false}, {"du --deref .", false},
		{"du --dereference-args x", true}, {"ls --deref x", false}, {"ls --dereference-command-line x", true},
		{"diff -r q r", false}, {"diff -ur q r", false}, {"diff -Nr q r", false}, {"diff --recursive q r", false},
		{"diff --recur q r", false}, {"diff -x r a b", true}, {"diff -u a b", true}, {"diff -q a b", true},
		// find
		{"find . -exec rm {} \\;", false}, {"find . -execdir ls \\;", false}, {"find . -ok rm {} \\;", false},
		{"find . -okdir rm {} \\;", false}, {"find . -delete", false}, {"find . -fprint out", false},
		{"find . -fprint0 out", false}, {"find . -fprintf out %p", false}, {"find . -fls out", false},
		{"find -- . -delete", false}, {"find . -- -exec x \\;", false}, {"find . -name x -o -exec x +", false},
		{"find . \\( -name a -exec x \\; \\)", false}, {`find . -ex"ec" x \;`, false}, {"find . '-delete'", false},
		{"find . -name -exec", false}, // conservative: -exec anywhere
		{"find . -name x -print", true}, {"find . -ls", true}, {"find / -maxdepth 1", true},
		// git: global options
		{"git -c core.pager=sh log", false}, {"git -c a=b status", false}, {"git -ccore.fsmonitor=x status", false},
		{"git --config-env=core.pager=X log", false}, {"git --config-env core.pager=X log", false},
		{"git --exec-path=. status", false}, {"git --exec-path status", false}, {"git --git-dir=x status", false},
		{"git --git-dir x status", false}, {"git --work-tree=/ status", false}, {"git --namespace=x log", false},
		{"git -p log", false}, {"git --paginate log", false}, {"git --bare log", false},
		{"git --super-prefix=x status", false}, {"git --list-cmds=main", false},
		{"git -C . -c a=b status", false}, {"git --no-pager -p log", false},
		{"git -C sub --no-pager log", true}, {"git -P log", true}, {"git --no-optional-locks status", true},
		{"git --literal-pathspecs diff", true},
		// git: subcommand options
		{"git log --output=f", false}, {"git log --output f", false}, {"git diff --output=f", false},
		{"git show --output=f HEAD", false}, {"git log --outp=f", false}, {"git log --outpu f", false},
		{"git log --ou=f", false}, {"git diff --ext", false}, {"git log --out=f", false}, {"git log --show", false}, {"git diff --tex", false}, {"git diff --ext-diff", false}, {"git diff --ext-d", false},
		{"git log -p --ext-diff", false}, {"git show --textconv HEAD", false}, {"git diff --textc", false},
		{"git log --show-signature", false}, {"git log --show-sig", false}, {"git log --format=%G?", false},
		{"git log --pretty=format:%GS", false}, {"git show --format='%h %GK'", false},
		{"git log --help", false}, {"git status --help", false}, {"git diff --he", false},
		{"git diff -- --output=x", true}, {"git diff --no-ext-diff", true}, {"git diff --no-textconv", true},
		{"git diff --output-indicator-new=+", true}, {"git log --stat", true}, {"git log -p", true},
		{"git show -c HEAD", true}, {"git log -h", true},
		// git: subcommands
		{"git push", false}, {"git commit -m x", false}, {"git config core.pager x", false}, {"git", false},
		{"git -C x", false}, {"git grep -O x", false}, {"git difftool", false}, {"git stash show", false},
		{"git log -- --output=x", true},
		// every other program of the set: no option disqualifies (but the file lists above)
		{"ls -la --color=always -R --hyperlink", true}, {"cat -v -A f", true}, {"head -c 10 f", true},
		{"tail -F --pid 1 f", true}, {"wc --files0-from=list", false}, {"grep -f pats -r --include='*.go' x .", true},
		{"grep -P 'x(?=y)' f", true}, {"pwd -P", true}, {"echo -e 'a\\n'", true}, {"stat --printf=%s f", true},
		{"du --files0-from=list -a", false}, {"which -a go", true}, {"diff --to-file=a b c", true},
		{"diff -r --from-file=x y", false}, {"true --help", true}, {"false x", true}, {": x y", true},
		// programs kept out of the set
		{"sed -n p f", false}, {"sed -i s/a/b/ f", false}, {"sed 'e id' f", false}, {"sed 'w out' f", false},
		{"sort f", false}, {"sort -o out f", false}, {"awk '{print}' f", false}, {"awk 'BEGIN{system(\"id\")}'", false},
		{"tar -tf x.tar", false}, {"tar -xf x.tar", false}, {"xargs ls", false}, {"tee out", false},
		{"less f", false}, {"more f", false}, {"man ls", false}, {"env", false}, {"printenv", false},
		{"command ls -la", true}, {"command -p ls", true}, {"command -v ls", true}, {"command rm x", false},
		{"/bin/ls", false}, {"./ls", false}, {"l's'", true},
	})
}

func TestDisqualified(t *testing.T) {
	cases := []struct {
		prog string
		args []string
		flag string
	}{
		{"rg", []string{"-iz", "x"}, "-iz"},
		{"rg", []string{"--pre=x", "y"}, "--pre=x"},
		{"rg", []string{"x", "--", "--pre"}, ""},
		{"find", []string{".", "--", "-delete"}, "-delete"},
		{"find", []string{".", "-fprintf", "f", "x"}, "-fprintf"},
		{"git", []string{"log", "--outp=F"}, "--outp=F"},
		{"git", []string{"diff", "--text"}, ""},
		{"ls", []string{"-la"}, ""},
		{"sed", []string{"-i"}, ""},
	}
	for _, tc := range cases {
		got, ok := Disqualified(tc.prog, tc.args)
		if got != tc.flag || ok != (tc.flag != "") {
			t.Errorf("Disqualified(%s %q) = %q, %v; want %q", tc.prog, tc.args, got, ok, tc.flag)
		}
	}
	for prog := range readOnlyFlags {
		// every program of the set is read-only with no arguments or with
		// a plain operand, except git, which needs a subcommand
		c := Command{Words: []string{prog, "x"}, Literal: true}
		if got := ReadOnly(c); got == (prog == "git") {
			t.Errorf("ReadOnly(%s x) = %v", prog, got)
		}
	}
}
