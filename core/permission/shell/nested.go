package shell

import "strings"

// Commands that run other commands given as arguments. Their inner
// command is reported as a nested Command (Origin "sh -c", "eval",
// "xargs" or "find -exec") so that rules must allow it too; the outer
// command is reported as well.

// shells are the shells whose -c string is parsed recursively.
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true}

// shellString finds the command string of `SHELL [options] -c STRING`:
// options may be clustered (-lc, -ec, -xc); -o/-O/+O take an argument;
// long options are skipped (--rcfile/--init-file take one). found is
// false when there is no -c (a script file or stdin runs instead).
func shellString(args []word) (s word, found bool) {
	hasC := false
	for i := 0; i < len(args); i++ {
		v := args[i].val
		if !args[i].lit {
			if hasC {
				return args[i], true
			}
			return word{}, false
		}
		switch {
		case v == "--" || v == "-":
			if hasC && i+1 < len(args) {
				return args[i+1], true
			}
			return word{}, false
		case v == "--rcfile" || v == "--init-file":
			i++
		case strings.HasPrefix(v, "--"):
		case len(v) > 1 && (v[0] == '-' || v[0] == '+'):
			for j := 1; j < len(v); j++ {
				switch v[j] {
				case 'c':
					hasC = true
				case 'o', 'O':
					i++
				}
			}
		default:
			if hasC {
				return args[i], true
			}
			return word{}, false
		}
	}
	return word{}, false
}

// xargsCommand returns the command xargs runs: the words after its
// options. Arguments read from stdin are appended at run time and are not
// part of the nested Command. ok is false when an option is not
// understood; a missing command means echo, which is reported as such.
func xargsCommand(args []word) ([]word, bool) {
	i, ok := optSpec{
		flags:    "0prtx",
		withArg:  "adEILnPs",
		optional: "ile",
		longFlags: []string{"--null", "--interactive", "--no-run-if-empty", "--verbose", "--exit",
			"--open-tty", "--show-limits", "--replace", "--eof", "--max-lines"}, // optional =value
		longArg: []string{"--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars",
			"--process-slot-var"},
	}.skipOptions(args)
	if !ok {
		return nil, false
	}
	if i >= len(args) {
		return []word{{val: "echo", src: "echo", lit: true}}, true
	}
	return args[i:], true
}

// findExecs returns the commands of find's -exec, -execdir, -ok and
// -okdir actions (each up to its ";" or "+").
func findExecs(args []word) [][]word {
	var out [][]word
	for i := 0; i < len(args); i++ {
		switch args[i].val {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		j := i + 1
		for j < len(args) && !(args[j].lit && (args[j].val == ";" || args[j].val == "+")) {
			j++
		}
		if j > i+1 {
			out = append(out, args[i+1:j])
		}
		i = j
	}
	return out
}
