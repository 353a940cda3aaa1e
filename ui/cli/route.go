package cli

import (
	"strings"
	"unicode"
)

// routeArgs decides what a command line runs (the arguments after the program
// name): a command of the table (its name first), `pincer run` for a line
// with Claude Code's print flag (-p or --print, anywhere before "--", taken
// out: `pincer -p "fix it"` is `pincer run "fix it"`), else the workbench
// (command ""), whose arguments may hold a prompt to send as it opens
// (`pincer "fix it"`, as Claude Code). A single word one typo away from a
// command (`pincer sesions`) is a usage error rather than a prompt sent to
// the model.
func routeArgs(args []string) (command string, rest []string, err error) {
	if len(args) == 0 {
		return "", nil, nil
	}
	if !strings.HasPrefix(args[0], "-") || aliases[args[0]] != "" {
		if c, ok := lookup(args[0]); ok {
			return c.Name, args[1:], nil
		}
	}
	for i, a := range args {
		if a == "--" {
			break
		}
		if a == "-p" || a == "--print" {
			return "run", append(append([]string(nil), args[:i]...), args[i+1:]...), nil
		}
	}
	if !strings.HasPrefix(args[0], "-") {
		if near, ok := nearCommand(args[0]); ok {
			return "", nil, usagef("unknown command %q: did you mean %q? (to send it as a prompt: pincer -- %s)", args[0], near, args[0])
		}
	}
	return "", args, nil
}

// nearCommand reports the command a single lower-case word is a typo of: at
// most one edit (insert, delete, substitute, swap two neighbours) from a
// command name of up to five letters, two from a longer one.
func nearCommand(word string) (string, bool) {
	if word == "" || strings.IndexFunc(word, func(r rune) bool { return !unicode.IsLower(r) && r != '-' }) >= 0 {
		return "", false
	}
	for _, c := range commands {
		limit := 1
		if len(c.Name) > 5 {
			limit = 2
		}
		if editDistance(word, c.Name) <= limit {
			return c.Name, true
		}
	}
	return "", false
}

// editDistance is the optimal-string-alignment distance of a and b (bytes):
// insertions, deletions, substitutions and swaps of neighbours, one each.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
