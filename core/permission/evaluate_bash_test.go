package permission

import (
	"strings"
	"testing"
)

func bash(cmd string) Input {
	return Input{Tool: "Bash", Kind: KindExecute, Command: cmd, Workspace: ws, Cwd: ws, Home: "/home/u"}
}

type bashCase struct {
	name string
	mode Mode
	rs   RuleSet
	cmd  string
	want Behavior
	by   string // prefix of Decision.By; "" = don't check
}

func runBashCases(t *testing.T, cases []bashCase) {
	t.Helper()
	for _, c := range cases {
		mode := c.mode
		if mode == "" {
			mode = ModeDefault
		}
		d := Evaluate(mode, c.rs, bash(c.cmd))
		if d.Behavior != c.want || !strings.HasPrefix(d.By, c.by) {
			t.Errorf("%s: %s %q = %s by %q (%s), want %s by %q…", c.name, mode, c.cmd, d.Behavior, d.By, d.Reason, c.want, c.by)
		}
		if d.Reason == "" {
			t.Errorf("%s: empty reason", c.name)
		}
	}
}

func TestBashRuleMatching(t *testing.T) {
	npmTest := rules(t, "allow:Bash(npm run test:*)")
	gitLog := rules(t, "allow:Bash(git log)")
	runBashCases(t, []bashCase{
		{"prefix", "", npmTest, "npm run test", Allow, "rule Bash(npm run test:*)"},
		{"prefix with args", "", npmTest, "npm run test -- -v", Allow, "rule Bash(npm run test:*)"},
		{"prefix word boundary", "", npmTest, "npm run testx", Ask, "mode:default"},
		{"wildcard", "", rules(t, "allow:Bash(git * main)"), "git checkout main", Allow, "rule"},
		{"wildcard no match", "", rules(t, "allow:Bash(git * main)"), "git push origin dev", Ask, "mode:"},
		{"exact", "", rules(t, "allow:Bash(npm run build)"), "npm run build", Allow, "rule"},
		{"exact is exact", "", rules(t, "allow:Bash(npm run build)"), "npm run build --prod", Ask, "mode:"},
		{"quoted words", "", rules(t, "allow:Bash(git commit:*)"), `git commit -m "fix bug"`, Allow, "rule"},
		{"compound: every part must be allowed", "", gitLog, "git log && rm -rf x", Ask, "mode:"},
		{"compound: pipe", "", npmTest, "npm run test | tee out.log", Ask, "mode:"},
		{"compound: all parts allowed", "", rules(t, "allow:Bash(npm run test:*)", "allow:Bash(make:*)"),
			"make build && npm run test; make clean", Allow, "rule"},
		{"compound with read-only part", "", npmTest, "npm run test && git status", Allow, "rule Bash(npm run test:*)"},
		{"exact rule for the whole line", "", rules(t, "allow:Bash(make && make test)"), "make && make test", Allow, "rule"},
		{"wrappers looked through", "", rules(t, "allow:Bash(npm test)"), "timeout 10 npm test", Allow, "rule"},
		{"bare Bash allows all", "", rules(t, "allow:Bash"), "cat x | sh", Allow, "rule Bash"},
		{"ask beats allow", "", rules(t, "allow:Bash", "ask:Bash(git push:*)"), "git add . && git push origin main", Ask, "rule Bash(git push:*)"},
		{"deny beats allow", "", rules(t, "allow:Bash", "deny:Bash(curl:*)"), "echo hi && curl -s x", Deny, "rule Bash(curl:*)"},
		{"deny whole tool", "", rules(t, "deny:Bash"), "ls", Deny, "rule Bash"},
	})
}

func TestBashAssignments(t *testing.T) {
	runBashCases(t, []bashCase{
		{"deny looks through VAR=", "", rules(t, "deny:Bash(rm:*)"), "FOO=1 rm x", Deny, "rule Bash(rm:*)"},
		{"ask looks through VAR=", "", rules(t, "allow:Bash", "ask:Bash(npm publish)"), "NPM_TOKEN=x npm publish", Ask, "rule Bash(npm publish)"},
		{"deny rule with the assignment", "", rules(t, "deny:Bash(FOO=1 rm:*)"), "FOO=1 rm x", Deny, "rule"},
		{"allow must include assignments", "", rules(t, "allow:Bash(npm test)"), "NODE_OPTIONS=--require=./x.js npm test", Ask, "mode:"},
		{"allow with assignments", "", rules(t, "allow:Bash(NODE_ENV=test npm test)"), "NODE_ENV=test npm test", Allow, "rule"},
		{"allow wildcard over assignments", "", rules(t, "allow:Bash(NODE_ENV=* npm test)"), "NODE_ENV=ci npm test", Allow, "rule"},
	})
}

func TestBashSubstitutionsAndRisks(t *testing.T) {
	echo := rules(t, "allow:Bash(echo:*)")
	runBashCases(t, []bashCase{
		{"inner command needs approval", "", echo, "echo $(rm -rf y)", Ask, "mode:"},
		// An allow rule matches only a literal command (issue 10, class 1): echo's
		// words come from a substitution here.
		{"every inner command allowed", "", rules(t, "allow:Bash(echo:*)", "allow:Bash(date)"), "echo $(date)", Ask, "mode:"},
		{"inner read-only", "", echo, "echo $(git status)", Ask, "mode:"},
		{"exact whole-line rule", "", rules(t, "allow:Bash(echo $(date))"), "echo $(date)", Allow, "rule"},
		{"deny reaches inner commands", "", rules(t, "allow:Bash", "deny:Bash(rm:*)"), "echo `rm -rf y`", Deny, "rule Bash(rm:*)"},
		{"deny reaches sh -c", "", rules(t, "allow:Bash", "deny:Bash(rm:*)"), `sh -c "rm -rf y"`, Deny, "rule Bash(rm:*)"},
		{"non-literal command name", "", RuleSet{}, "$CMD foo", Ask, "mode:"},
		{"non-literal command name in dontAsk", ModeDontAsk, RuleSet{}, "$CMD foo", Deny, "mode:dontAsk"},
		{"non-literal command name allowed by a rule", "", rules(t, "allow:Bash"), "$CMD foo", Allow, "rule"},
		{"risky line: acceptEdits file ops need a rule", ModeAcceptEdits, RuleSet{}, "$CMD; mkdir a", Ask, "mode:"},
		{"unparseable asks", "", RuleSet{}, "echo 'unterminated", Ask, "mode:default"},
		{"unparseable in dontAsk", ModeDontAsk, RuleSet{}, "echo 'unterminated", Deny, "mode:dontAsk"},
		{"unparseable in bypass", ModeBypass, RuleSet{}, "echo 'unterminated", Deny, "mode:bypassPermissions"},
		{"unparseable: deny rule on the raw text", "", rules(t, "deny:Bash(echo:*)"), "echo 'unterminated", Deny, "rule"},
		{"unparseable: an allow rule does not help", "", rules(t, "allow:Bash"), "echo 'unterminated", Ask, "mode:"},
	})
}

func TestBashReadOnlyAndRedirects(t *testing.T) {
	var cases []bashCase
	for _, m := range Modes {
		cases = append(cases, bashCase{"read-only", m, RuleSet{}, "ls -la && git status && cat a.go | wc -l", Allow, "read-only"})
		cases = append(cases, bashCase{"read-only to /dev/null", m, RuleSet{}, "grep -r x . 2>/dev/null", Allow, "read-only"})
	}
	cases = append(cases,
		bashCase{"redirect asks", ModeDefault, RuleSet{}, "ls > out.txt", Ask, "mode:default"},
		bashCase{"redirect inside in acceptEdits", ModeAcceptEdits, RuleSet{}, "ls > out.txt", Allow, "mode:acceptEdits"},
		bashCase{"redirect outside in acceptEdits", ModeAcceptEdits, RuleSet{}, "ls > /etc/out.txt", Ask, "mode:"},
		bashCase{"redirect in plan", ModePlan, RuleSet{}, "ls > out.txt", Deny, "mode:plan"},
		bashCase{"redirect in bypass", ModeBypass, RuleSet{}, "ls > out.txt", Allow, "mode:bypassPermissions"},
		bashCase{"redirect allowed by an Edit rule", ModeDefault, rules(t, "allow:Edit(/logs/**)"), "ls >> logs/ls.txt", Allow, "rule Edit(/logs/**)"},
		bashCase{"redirect denied by an Edit rule", ModeBypass, rules(t, "deny:Edit(*.lock)"), "echo x > sub/go.lock", Deny, "rule Edit(*.lock)"},
		bashCase{"non-literal redirect target", ModeAcceptEdits, RuleSet{}, "ls > $OUT", Ask, "mode:"},
		bashCase{"read deny rule on a read-only command's argument", ModeDefault, rules(t, "deny:Read(./secrets/**)"), "cat secrets/key", Deny, "rule Read(./secrets/**)"},
		bashCase{"read ask rule on an argument", ModeDefault, rules(t, "ask:Read(//etc/**)"), "head -n 3 /etc/shadow", Ask, "rule Read(//etc/**)"},
		bashCase{"plan: read-only runs", ModePlan, RuleSet{}, "git log --oneline | head", Allow, "read-only"},
		bashCase{"plan: an allow rule does not run a command", ModePlan, rules(t, "allow:Bash(npm test)"), "npm test", Deny, "mode:plan"},
		bashCase{"dontAsk: unmatched denied", ModeDontAsk, RuleSet{}, "npm test", Deny, "mode:dontAsk"},
		bashCase{"dontAsk: allowed by a rule", ModeDontAsk, rules(t, "allow:Bash(npm test)"), "npm test", Allow, "rule"},
	)
	runBashCases(t, cases)
}

func TestBashAcceptEditsFileOps(t *testing.T) {
	runBashCases(t, []bashCase{
		{"inside", ModeAcceptEdits, RuleSet{}, "mkdir -p a/b && touch a/b/c && cp a/b/c d && mv d e && rm e && rmdir a/b", Allow, "mode:acceptEdits"},
		{"default mode asks", ModeDefault, RuleSet{}, "mkdir a", Ask, "mode:default"},
		{"absolute inside", ModeAcceptEdits, RuleSet{}, "touch /w/x", Allow, "mode:acceptEdits"},
		{"outside", ModeAcceptEdits, RuleSet{}, "touch /etc/x", Ask, "mode:"},
		{"escape by ..", ModeAcceptEdits, RuleSet{}, "rm ../other/x", Ask, "mode:"},
		{"copy out", ModeAcceptEdits, RuleSet{}, "cp a.go /tmp/", Ask, "mode:"},
		{"option carrying a path", ModeAcceptEdits, RuleSet{}, "cp --target-directory=/etc a", Ask, "mode:"},
		{"attached short option", ModeAcceptEdits, RuleSet{}, "cp -t/etc a", Ask, "mode:"},
		{"cd out first", ModeAcceptEdits, RuleSet{}, "cd /tmp && rm x", Ask, "mode:"},
		{"cd within", ModeAcceptEdits, RuleSet{}, "cd sub && rm x", Allow, "mode:acceptEdits"},
		{"cd unknown", ModeAcceptEdits, RuleSet{}, "cd $DIR && rm x", Ask, "mode:"},
		{"non-literal argument", ModeAcceptEdits, RuleSet{}, "rm -- $X", Ask, "mode:"},
		{"no arguments", ModeAcceptEdits, RuleSet{}, "mkdir", Ask, "mode:"},
		{"other commands still ask", ModeAcceptEdits, RuleSet{}, "mkdir a && npm install", Ask, "mode:"},
		{"Edit deny rule on a file op", ModeBypass, rules(t, "deny:Edit(/protected/**)"), "rm protected/a", Deny, "rule Edit(/protected/**)"},
		{"Edit ask rule on a file op", ModeAcceptEdits, rules(t, "ask:Edit(/docs/**)"), "touch docs/x", Ask, "rule Edit(/docs/**)"},
	})
}

func TestBashHardDenyInEveryMode(t *testing.T) {
	for _, m := range Modes {
		for _, cmd := range []string{"rm -rf /", "rm -rf ~", "echo ok && sudo rm -rf /usr", "mkfs.ext4 /dev/sda1"} {
			d := Evaluate(m, rules(t, "allow:Bash"), bash(cmd))
			if d.Behavior != Deny || d.By != "hard-deny" {
				t.Errorf("%s %q = %s by %q (%s), want a hard deny", m, cmd, d.Behavior, d.By, d.Reason)
			}
		}
	}
	d := Evaluate(ModeBypass, RuleSet{}, bash("make install"))
	if d.Behavior != Allow || d.By != "mode:bypassPermissions" {
		t.Errorf("bypass = %+v", d)
	}
}
