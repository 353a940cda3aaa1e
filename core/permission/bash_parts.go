package permission

import (
	"path/filepath"
	"slices"
	"strings"

	"pincer/core/permission/shell"
)

// The parts of a Bash command line that the rules look at: each simple command
// (shell.Analyze flattens nested ones), with the texts rules match, the files its
// redirects write, the file arguments of mkdir/touch/mv/cp/rm/rmdir (edits), and
// the arguments of read-only commands (reads).
//
// Environment assignments (`FOO=1 npm test`): deny and ask rules match the
// command with and without them, so `Bash(rm:*)` denies `FOO=1 rm x`; allow
// rules must match the command including them, so `Bash(npm test)` does not allow
// `NODE_OPTIONS=--require=x npm test` — an assignment can change what a program
// does (LD_PRELOAD, GIT_SSH_COMMAND, NODE_OPTIONS, ...). Claude Code strips a
// short list of "safe" variables before allow matching; pincer strips none, and
// "always allow" saves the command with its assignments. The wrappers the shell
// analysis looks through (timeout, nice, nohup, time, stdbuf, command, env) are
// not part of the matched text; deny and ask rules also match every form of
// shell.Command.Forms (bash_forms.go).
//
// Every path is cleaned and resolved against the directory the command runs in
// (following cd) before anything is decided, and symlinks in it are resolved
// for the protected-path and inside-the-workspace checks; of the redirect
// targets only the devices shell.HarmlessTarget names are not writes.

// partStatus is how a part (a command or one of its write targets) is allowed.
type partStatus int

const (
	pending     partStatus = iota // needs approval
	byReadOnly                    // in the built-in read-only set (or runs nothing)
	byAllowRule                   // an allow rule matches
	byModeOK                      // the mode allows it (acceptEdits file ops and writes)
)

// target is a file a part writes or reads: the word as written and the absolute
// paths it may stand for (one per possible working directory; none when unknown).
type target struct {
	word  string
	paths []string
}

// bashPart is one simple command and what the rules say about it.
type bashPart struct {
	cmd      shell.Command
	lists    [][]string // the word lists deny and ask rules see: shell.Command.Forms, runners, git aliases
	full     string     // assignments, then the command text: what allow rules match
	forms    []string   // every text deny and ask rules match
	readOnly bool       // shell.ReadOnly, write redirects aside (they are checked as edits)
	fileOp   bool       // mkdir, touch, mv, cp, rm or rmdir with simple options
	writes   []target   // redirect targets (edits)
	fileArgs []target   // file arguments of a file op (edits)
	readArgs []target   // arguments and input redirects of a read-only command (reads)
	// mayWrite are the literal path arguments of a command that is not
	// read-only: any of them may be written (checked against the protected paths).
	mayWrite []target
	// reach are the literal path words of a command that is not read-only —
	// operands, option values, KEY=value values, git's included — which it may
	// read or follow (`git --git-dir=../x`, `find .. -exec`, `ln -s ../x o`):
	// a project's allow rule allows it only when each lies inside (Rule.Project).
	reach []target
	// opaque says why deny rules cannot see the program (non-literal, or a shell
	// reading stdin); inline why it runs code given inline; "" when neither.
	opaque, inline string
	// gitConfig says how the command writes git's configuration ("" if not).
	gitConfig string
	// unknownWrite names a write whose target cannot be resolved (bypass asks).
	unknownWrite string
	// forced are the targets of `rm -f`/`rm -rf` (bypass asks outside the workspace).
	forced   []target
	isForced bool
	outside  bool // a command that reads (or, not read-only, names) a path outside the workspace

	status      partStatus
	rule        Rule // the allow rule, when status is byAllowRule
	writeStatus []partStatus
	writeRules  []Rule
}

// fileOps are the commands acceptEdits allows on workspace paths.
var fileOps = map[string]bool{"mkdir": true, "touch": true, "mv": true, "cp": true, "rm": true, "rmdir": true}

// cwdTracker follows `cd` through a command line. Since subshells and control
// flow make the directory uncertain, it keeps every directory seen: a relative
// path stands for one path per directory, and a `cd` it cannot follow makes
// relative paths unknown.
type cwdTracker struct {
	dirs      []string
	home      string
	workspace string
	unknown   bool
}

// resolve returns the absolute paths word may stand for; nil when unknown.
func (t *cwdTracker) resolve(word string, literal bool) []string {
	if rest, ok := strings.CutPrefix(word, "~/"); ok && t.home != "" && plainWord(rest) {
		return []string{filepath.Join(t.home, rest)}
	}
	if !literal || word == "" {
		return nil
	}
	if filepath.IsAbs(word) {
		return []string{filepath.Clean(word)}
	}
	if t.unknown {
		return nil
	}
	out := make([]string, 0, len(t.dirs))
	for _, d := range t.dirs {
		if p := filepath.Join(d, word); !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// follow updates the tracker after command c ran.
func (t *cwdTracker) follow(c shell.Command) {
	if len(c.Words) == 0 {
		return
	}
	switch c.Words[0] {
	case "cd", "pushd":
		if len(c.Words) == 2 && !strings.HasPrefix(c.Words[1], "-") {
			if ps := t.resolve(c.Words[1], wordLiteral(c, c.Words[1])); ps != nil {
				for _, p := range ps {
					if !slices.Contains(t.dirs, p) {
						t.dirs = append(t.dirs, p)
					}
				}
				return
			}
		}
		t.unknown = true
	case "popd":
		t.unknown = true
	}
}

// cdInside reports whether c is `cd DIR` into the workspace: it changes nothing
// but the directory later relative paths resolve against, which the tracker
// follows (Claude Code allows cd within the project the same way).
func cdInside(c shell.Command, cwd *cwdTracker) bool {
	if len(c.Words) != 2 || c.Words[0] != "cd" || len(c.Redirects) > 0 || len(c.Assigns) > 0 ||
		strings.HasPrefix(c.Words[1], "-") {
		return false
	}
	dirs := cwd.resolve(c.Words[1], wordLiteral(c, c.Words[1]))
	return len(dirs) > 0 && allInside(dirs, cwd.workspace)
}

// plainWord reports whether w has nothing the shell would expand.
func plainWord(w string) bool { return !strings.ContainsAny(w, "$`*?[{~") }

// wordLiteral reports whether word w of c is literal: every word is when the
// command is; otherwise only words with nothing to expand.
func wordLiteral(c shell.Command, w string) bool {
	return c.Literal || plainWord(w)
}

// commandText is the text rules match for c: its words, each quoted as a user
// would type it when the command is literal; the analysis' text otherwise.
func commandText(c shell.Command) string {
	if !c.Literal {
		if c.Text != "" {
			return c.Text
		}
		return strings.Join(c.Words, " ")
	}
	q := make([]string, len(c.Words))
	for i, w := range c.Words {
		q[i] = quoteWord(w)
	}
	return strings.Join(q, " ")
}

// buildParts turns an analysis into parts, following cd from in.Cwd.
func buildParts(a shell.Analysis, in Input) []bashPart {
	cwd := &cwdTracker{dirs: []string{in.Cwd}, home: in.Home, workspace: in.Workspace}
	if in.Cwd == "" {
		cwd.unknown = true
	}
	parts := make([]bashPart, 0, len(a.Commands))
	var findStarts []target // the starting points of the latest find
	for _, c := range a.Commands {
		p := newPart(c, cwd)
		if c.Origin == "find -exec" && p.isForced && findStarts != nil {
			p.forced = findStarts // rm -rf {} removes what find finds below them
		}
		if starts := findStartPaths(p.lists); starts != nil {
			findStarts = findStarts[:0:0]
			for _, w := range starts {
				findStarts = append(findStarts, target{word: w, paths: cwd.resolve(w, wordLiteral(c, w))})
			}
		}
		parts = append(parts, p)
		cwd.follow(c)
	}
	return parts
}

// newPart describes one simple command.
func newPart(c shell.Command, cwd *cwdTracker) bashPart {
	text := commandText(c)
	p := bashPart{cmd: c, full: joinNonEmpty(strings.Join(c.Assigns, " "), text)}
	for _, f := range []string{text, p.full, c.Text, joinNonEmpty(strings.Join(c.Assigns, " "), c.Text)} {
		if f != "" && !slices.Contains(p.forms, f) {
			p.forms = append(p.forms, f)
		}
	}
	p.lists = c.Forms()
	var runnerOpaque string
	p.lists, runnerOpaque = runnerForms(c, p.lists)
	aliases, aliasOpaque := gitAliasForms(c, p.lists)
	p.lists = append(p.lists, aliases...)
	if runnerOpaque == "" {
		runnerOpaque = aliasOpaque
	}
	p.forms = ruleForms(c, p.lists, p.forms)
	prog := ""
	if len(c.Words) > 0 {
		prog = c.Program()
	}
	p.opaque, p.inline = opaqueProgram(c, prog), inlineCode(c, prog)
	if p.opaque == "" {
		p.opaque = runnerOpaque
	}
	if p.opaque == "" {
		p.opaque = laterCode(c, p.lists)
	}
	if p.inline == "" {
		p.inline = makeInline(p.lists)
	}
	p.gitConfig = gitConfigWrite(p.lists)
	noWrites := c
	noWrites.Redirects = nil
	var inputs []target
	for _, r := range c.Redirects {
		switch {
		case r.Write && !(r.Literal && shell.HarmlessTarget(r.Target)):
			t := target{word: r.Target, paths: cwd.resolve(r.Target, r.Literal)}
			p.writes = append(p.writes, t)
			if len(t.paths) == 0 {
				p.unknownWrite = "writing " + r.Target
			}
		case !r.Write:
			noWrites.Redirects = append(noWrites.Redirects, r)
			if op := strings.TrimLeft(r.Op, "0123456789"); op == "<" && r.Target != "" {
				inputs = append(inputs, target{word: r.Target, paths: cwd.resolve(r.Target, r.Literal)})
			}
		}
	}
	p.readOnly = shell.ReadOnly(noWrites) || cdInside(c, cwd)
	if len(c.Words) == 0 {
		return p
	}
	args, simple := fileArguments(c.Words[1:])
	targets := make([]target, 0, len(args))
	for _, w := range args {
		targets = append(targets, target{word: w, paths: cwd.resolve(w, wordLiteral(c, w))})
	}
	switch {
	case fileOps[c.Words[0]]:
		p.fileOp = simple && len(args) > 0
		p.fileArgs = targets
	case p.readOnly && !noFileArgs[c.Words[0]]:
		p.readArgs = append(append(targets, attachedValues(c, cwd)...), inputs...)
	case p.readOnly:
		p.readArgs = inputs
	}
	if !p.readOnly {
		p.reach = pathWords(c, targets, cwd)
		p.mayWrite = writeCandidates(c, p.reach, cwd)
		if fileWriters[programName(c.Words[0])] {
			for _, t := range targets {
				if len(t.paths) == 0 {
					p.unknownWrite = "`" + shorten(p.full) + "`, whose argument " + t.word + " cannot be resolved"
				}
			}
		}
		for _, l := range p.lists {
			if fileWriters[programName(l[0])] && l[0] != c.Words[0] {
				for _, w := range l[1:] {
					if !wordLiteral(c, w) || cwd.resolve(w, true) == nil {
						p.unknownWrite = "`" + shorten(p.full) + "`, whose argument " + w + " cannot be resolved"
					}
				}
			}
		}
	}
	if fd := findDeleteTargets(p.lists); fd != nil {
		p.isForced = true
		for _, w := range fd {
			p.forced = append(p.forced, target{word: w, paths: cwd.resolve(w, wordLiteral(c, w))})
		}
	}
	if forcedDelete(p.lists) && (c.Origin == "find -exec" || c.Origin == "xargs") {
		// the files come from find or from standard input: unknown here
		p.isForced = true
		p.forced = append(p.forced, target{word: "the files " + c.Origin + " passes it"})
	} else if forcedDelete(p.lists) {
		p.isForced = true
		for _, l := range p.lists {
			if programName(l[0]) == "rm" {
				rmArgs, _ := fileArguments(l[1:])
				for _, w := range rmArgs {
					p.forced = append(p.forced, target{word: w, paths: cwd.resolve(w, wordLiteral(c, w))})
				}
				break
			}
		}
	}
	return p
}

// noFileArgs are read-only commands whose arguments are not files.
var noFileArgs = map[string]bool{"echo": true, "printf": true, "pwd": true, "true": true, "false": true, ":": true,
	"which": true, "command": true, "type": true, "test": true, "[": true, "[[": true, "((": true, "cd": false}

// fileWriters are the commands whose arguments are files they may write (a
// non-literal argument of one of them asks in bypassPermissions: it might name
// a protected path).
var fileWriters = map[string]bool{"mv": true, "cp": true, "rm": true, "rmdir": true, "mkdir": true, "touch": true,
	"ln": true, "chmod": true, "chown": true, "chgrp": true, "tee": true, "install": true, "rsync": true, "dd": true,
	"sed": true, "truncate": true, "patch": true, "unzip": true, "tar": true, "curl": true, "wget": true, "sort": true,
	"shred": true, "cpio": true, "split": true, "csplit": true, "perl": false}

// gitWritingSubcommands are git's subcommands whose path arguments may be
// written (checked against the protected paths); the others' arguments are
// pathspecs, revisions and messages (`git add AGENTS.md` writes the index, not
// the file).
var gitWritingSubcommands = map[string]bool{"mv": true, "rm": true, "checkout": true, "restore": true, "apply": true,
	"am": true, "clean": true, "archive": true, "format-patch": true, "worktree": true, "init": true, "clone": true,
	"bundle": true, "config": true, "switch": true}

// attachedValues are the values attached to short options that look like
// paths: -t.git/hooks, -f/etc/shadow, -o../x.
func attachedValues(c shell.Command, cwd *cwdTracker) []target {
	var out []target
	for _, w := range c.Words[1:] {
		if len(w) > 2 && w[0] == '-' && w[1] != '-' {
			if i := strings.IndexAny(w[2:], "/.~"); i >= 0 {
				v := w[2+i:]
				out = append(out, target{word: v, paths: cwd.resolve(v, wordLiteral(c, w))})
			}
		}
	}
	return out
}

// pathWords returns every literal argument of c that may name a path: the
// operands and --option=value values (targets), attached option values
// (-f/x) and KEY=value values (dd of=F, make DESTDIR=D).
func pathWords(c shell.Command, targets []target, cwd *cwdTracker) []target {
	out := append(append([]target(nil), targets...), attachedValues(c, cwd)...)
	for _, w := range c.Words[1:] {
		if !strings.HasPrefix(w, "-") {
			if _, v, ok := strings.Cut(w, "="); ok && v != "" {
				out = append(out, target{word: v, paths: cwd.resolve(v, wordLiteral(c, w))})
			}
		}
	}
	return out
}

// writeCandidates returns the targets a command that is not read-only may
// write: every path word (pathWords: words), except for git, whose arguments
// count only for the subcommands that write files (plus --output / -o values).
func writeCandidates(c shell.Command, words []target, cwd *cwdTracker) []target {
	out := words
	if programName(c.Words[0]) == "git" {
		if g, ok := shell.ParseGit(c.Words); ok && gitWritingSubcommands[g.Sub] {
			return out
		}
		var keep []target
		for j, w := range c.Words {
			if (w == "-o" || w == "--output") && j+1 < len(c.Words) {
				v := c.Words[j+1]
				keep = append(keep, target{word: v, paths: cwd.resolve(v, wordLiteral(c, v))})
			}
			if v, ok := strings.CutPrefix(w, "--output="); ok {
				keep = append(keep, target{word: v, paths: cwd.resolve(v, wordLiteral(c, w))})
			}
		}
		return keep
	}
	return out
}

// fileArguments returns the words of args that may name files: operands, and the
// values of --option=value. simple is false when an option is more than letters,
// digits and dashes (it might carry a path the caller cannot see, like -t/dir).
func fileArguments(args []string) (files []string, simple bool) {
	simple = true
	for i, w := range args {
		switch {
		case w == "--":
			return append(files, args[i+1:]...), simple
		case strings.HasPrefix(w, "-") && len(w) > 1:
			if _, val, ok := strings.Cut(w, "="); ok {
				files = append(files, val)
			}
			if strings.TrimLeft(w, "-abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != "" {
				simple = false
			}
		default:
			files = append(files, w)
		}
	}
	return files, simple
}

func joinNonEmpty(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}
