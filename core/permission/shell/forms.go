package shell

import (
	"path"
	"strings"
)

// Deny and ask rules must match a command however it is dressed: behind
// wrappers (`sudo rm`, `exec rm`, `env -i rm`, `timeout -s KILL 5 rm`),
// by a path (`/bin/rm`, `./bin/rm`), and for git behind global options
// (`git -C . push`). Forms lists those spellings; Program names the
// program for rules that match a command name alone.

// formWrappers are the wrappers Forms looks through: Analyze's wrappers,
// the privileged ones (sudo doas pkexec exec), xargs, setsid and ionice,
// and env with -C DIR (which Analyze does not look through, since the
// directory changes what relative paths mean) and -S STRING (split into
// words).
var formWrappers = map[string]wrapperParser{
	"timeout": parseTimeout, "nice": parseNice, "nohup": parseNohup, "time": parseTime,
	"stdbuf": parseStdbuf, "command": parseCommand, "builtin": parseBuiltin, "env": parseEnvForms,
	"sudo": parseSudo, "doas": parseDoas, "pkexec": parsePkexec, "exec": parseExec,
	"xargs": parseXargs, "setsid": parseSetsid, "ionice": parseIonice,
}

// parseEnvForms: env [-i] [-0] [-u NAME] [-C DIR] [NAME=value]... CMD...
func parseEnvForms(args []word) (int, bool) {
	i, ok := optSpec{flags: "i0v", withArg: "uCS",
		longFlags: []string{"--ignore-environment", "--null", "--debug"},
		longArg:   []string{"--unset", "--chdir", "--split-string"}}.skipOptions(args)
	if !ok {
		return 0, false
	}
	for i < len(args) && args[i].lit && isAssignWord(args[i].val) {
		i++
	}
	return i, true
}

func parseXargs(args []word) (int, bool) {
	cmd, ok := xargsCommand(args)
	if !ok || len(cmd) == 0 || len(args) == 0 {
		return 0, false
	}
	return len(args) - len(cmd), true
}

// parseSetsid: setsid [-c] [-f] [-w] CMD...
func parseSetsid(args []word) (int, bool) {
	return optSpec{flags: "cfw", longFlags: []string{"--ctty", "--fork", "--wait"}}.skipOptions(args)
}

// parseIonice: ionice [-c CLASS] [-n LEVEL] [-t] CMD...
func parseIonice(args []word) (int, bool) {
	return optSpec{flags: "t", withArg: "cn", longFlags: []string{"--ignore"},
		longArg: []string{"--class", "--classdata"}}.skipOptions(args)
}

// envSplit returns the words of `env -S STRING ARGS...` (STRING split at
// blanks, as env does for simple strings), or nil.
func envSplit(args []word) []word {
	for i, a := range args {
		v := a.val
		var s string
		switch {
		case !a.lit:
			return nil
		case v == "-S" || v == "--split-string":
			if i+1 >= len(args) || !args[i+1].lit {
				return nil
			}
			s = args[i+1].val
			i++
		case strings.HasPrefix(v, "-S"):
			s = v[2:]
		case strings.HasPrefix(v, "--split-string="):
			s = strings.TrimPrefix(v, "--split-string=")
		case strings.HasPrefix(v, "-"):
			continue
		default:
			return nil
		}
		var out []word
		for _, f := range strings.Fields(s) {
			out = append(out, raw(f))
		}
		return append(out, args[i+1:]...)
	}
	return nil
}

// Forms returns the word lists a deny or ask rule should be matched
// against for c, the first being the command as written (Outer, or Words
// when no wrapper was looked through), without duplicates:
//
//   - each command found by looking through the wrappers one at a time
//     (formWrappers: timeout nice nohup time stdbuf command builtin env
//     sudo doas pkexec exec xargs setsid ionice, with their options, e.g.
//     `sudo -u x`, `env -i -u VAR -C DIR A=1`, `env -S 'rm -rf x'`,
//     `timeout -s KILL 5`, `nice -n 5`, `stdbuf -oL`, `command -p`);
//   - for each of those whose program is written as a path (/bin/rm,
//     ./x/rm), the same words with the program's base name;
//   - for each git command, `git SUB ARGS...` without its global options
//     (ParseGit), so `git -C . -c a=b push` gives `git push`.
//
// Words of a non-literal c are source text; a non-literal program name
// stays as it is (see Program). Forms does not render text: the engine
// joins each list the way it renders Words.
func (c Command) Forms() [][]string {
	out, _ := c.forms()
	return out
}

// forms computes Forms and Program.
func (c Command) forms() (out [][]string, program string) {
	base := c.Outer
	if base == nil {
		base = c.Words
	}
	seen := map[string]bool{}
	add := func(ws []string) {
		if len(ws) == 0 {
			return
		}
		k := strings.Join(ws, "\x00")
		if !seen[k] {
			seen[k] = true
			out = append(out, ws)
		}
	}
	variants := func(ws []string) {
		add(ws)
		if strings.Contains(ws[0], "/") && looksLiteral(ws[0]) || c.Literal && strings.Contains(ws[0], "/") {
			bw := append([]string{path.Base(ws[0])}, ws[1:]...)
			add(bw)
			ws = bw
		}
		if g, ok := ParseGit(ws); ok && g.Sub != "" && (len(g.Globals) > 0 || len(g.Dirs) > 0) {
			add(append([]string{"git", g.Sub}, g.Rest...))
		}
	}
	ws := stringWords(base, c.Literal)
	unknown := false // the real program may be a non-literal word
	for depth := 0; len(ws) > 0 && depth < 64; depth++ {
		variants(values(ws))
		name := ""
		if ws[0].lit {
			name = path.Base(ws[0].val)
		} else {
			unknown = true
		}
		if name == "env" {
			if split := envSplit(ws[1:]); split != nil {
				ws = split
				continue
			}
		}
		parse, found := formWrappers[name]
		if !found {
			break
		}
		start, ok := parse(ws[1:])
		if !ok || 1+start >= len(ws) {
			unknown = unknown || !allLiteral(ws[1:])
			break
		}
		ws = ws[1+start:]
	}
	if len(out) == 0 && len(c.Words) > 0 {
		add(c.Words)
	}
	if !unknown && len(ws) > 0 {
		program = path.Base(ws[0].val)
	}
	return out, program
}

// Program returns the base name of the program c runs once every wrapper
// Forms looks through is removed ("rm" for `sudo -u x /bin/rm -rf y`,
// "git" for `git -C . push`); "" when that name is not literal
// (`$(echo rm) x`, `rm${IFS}x`, `"$cmd"`) or c has no words. A command
// whose Program is "" may run anything: the permission engine treats it
// as matching every deny rule's program. Interpreters reading a program
// from stdin (ProgramFromStdin) run commands Program cannot name either.
func (c Command) Program() string {
	_, p := c.forms()
	return p
}
