package skill

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Runner does what a template asks for before its turn, as the agent's tool
// calls: Shell runs a command as a Bash tool call (permission rules, hooks, the
// approval queue, the sandbox) and returns its output; ReadFile reads a file
// as a Read tool call (the workspace guard, Read rules, hidden paths) and
// returns its text. An error is the call's failure or denial, shown in place
// of the output.
type Runner interface {
	Shell(ctx context.Context, command string) (string, error)
	ReadFile(ctx context.Context, path string) (string, error)
}

// Expansion is a /NAME line made into a turn's input.
type Expansion struct {
	Name   string
	Origin Origin
	// Text is the turn's input: the template with its substitutions, its
	// !`command`s replaced by their output, the @files it names appended.
	Text string
	// AllowedTools are the permission rules granted for this turn (the
	// file's allowed-tools; the person invoked it).
	AllowedTools []string
	// Model is the file's model ("" keeps the session's).
	Model string
}

// shellSpan is Claude Code's !`command`: a '!' before a backtick span.
var shellSpan = regexp.MustCompile("!`([^`\n]+)`")

// fileRef is an @path in the template: '@' at the start or after white space,
// then a path (Claude Code's file mention). Trailing punctuation is not part
// of it; a word without '/', '.' or '~' (a person's @name) is not a path.
var fileRef = regexp.MustCompile(`(^|[\s(])@([^\s]+)`)

// ErrControlInArgs is returned when an argument used inside a !`command`
// holds a line break or another control character.
var ErrControlInArgs = errors.New("an argument used in a !`command` may not hold a line break or another control character")

// Expand makes /NAME args into the turn's input (for a person's invocation).
// In order: a built-in's Gather; the template split into text and !`command`
// parts (found in the file's text, never in the arguments); the arguments
// substituted — as text in text parts, as quoted shell words in commands
// (substSh) — and, when the template has no argument placeholder, args is
// not empty and no Gather took them, "ARGUMENTS: args" appended (Claude
// Code's rule); each command run
// through run.Shell and replaced by its output; each @path of the template
// read through run.ReadFile and appended in a <file> block. A nil run is an
// error when the template has a command or a file reference.
func Expand(ctx context.Context, s Skill, args string, env GatherEnv, run Runner) (Expansion, error) {
	p, body, err := prepare(ctx, s, args, env)
	if err != nil {
		return Expansion{}, err
	}
	used := false
	var b strings.Builder
	last := 0
	for _, m := range shellSpan.FindAllStringSubmatchIndex(body, -1) {
		b.WriteString(p.substText(body[last:m[0]], &used))
		cmd, ok := p.substSh(body[m[2]:m[3]], &used)
		if !ok {
			return Expansion{}, fmt.Errorf("/%s: %w", s.Name, ErrControlInArgs)
		}
		if run == nil {
			return Expansion{}, fmt.Errorf("/%s: its !`%s` needs a turn to run in", s.Name, cmd)
		}
		out, err := run.Shell(ctx, cmd)
		if err != nil {
			out = fmt.Sprintf("[!`%s` did not run: %v]", cmd, err)
		}
		b.WriteString(strings.TrimRight(out, "\n"))
		last = m[1]
	}
	b.WriteString(p.substText(body[last:], &used))
	text := b.String()
	if !used && strings.TrimSpace(args) != "" && s.Gather == nil { // a Gather got the arguments itself
		text = strings.TrimRight(text, "\n") + "\n\nARGUMENTS: " + args
	}
	text = strings.TrimRight(text, "\n")
	files := FileRefs(body)
	if len(files) > 0 && run == nil {
		return Expansion{}, fmt.Errorf("/%s: its @%s needs a turn to be read in", s.Name, files[0])
	}
	text = appendFiles(ctx, text, files, run)
	return Expansion{Name: s.Name, Origin: s.Origin, Text: strings.TrimSpace(text), AllowedTools: s.AllowedTools, Model: s.Model}, nil
}

// ForModel is the Skill tool's answer for s loaded by the model with args:
// the base directory line (so the model can Read the files beside it) and the
// body with its arguments (and a built-in's gathered context) substituted.
// Nothing runs: a !`command` stays as text, for the model to run through
// Bash (which asks as any call); @files are not read; allowed-tools grant
// nothing.
func ForModel(ctx context.Context, s Skill, args string, env GatherEnv) (string, error) {
	p, body, err := prepare(ctx, s, args, env)
	if err != nil {
		return "", err
	}
	used := false
	text := strings.TrimSpace(p.substText(body, &used))
	if !used && strings.TrimSpace(args) != "" && s.Gather == nil {
		text += "\n\nARGUMENTS: " + args
	}
	if s.Dir != "" {
		text = "Base directory for this skill: " + s.Dir + "\n\n" + text
	}
	return text, nil
}

// prepare gathers a built-in's context and fills the placeholders; it
// returns the body to expand ($CONTEXT appended when a built-in's has none).
func prepare(ctx context.Context, s Skill, args string, env GatherEnv) (*placeholders, string, error) {
	env.Args, env.ArgList = args, SplitArgs(args)
	p := &placeholders{args: strings.TrimSpace(args), list: env.ArgList, names: s.Arguments, dir: s.Dir}
	if s.Gather != nil {
		gathered, err := s.Gather(ctx, env)
		if err != nil {
			return nil, "", err // it names the command itself (builtin.Skill.Expand: "/commit: ...")
		}
		if !strings.Contains(s.Body, "$CONTEXT") {
			s.Body = strings.TrimRight(s.Body, "\n") + "\n\n$CONTEXT"
		}
		p.context = &gathered
	}
	return p, s.Body, nil
}

// FileRefs returns the @paths a template names, in order, each once.
func FileRefs(body string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range fileRef.FindAllStringSubmatch(body, -1) {
		f := strings.TrimRight(m[2], ".,;:!?)]}\"'`")
		if f == "" || !strings.ContainsAny(f, "/.~") || seen[f] {
			continue
		}
		seen[f] = true
		out = append(out, f)
	}
	return out
}

// appendFiles reads each file through run.ReadFile (a Read tool call of the
// turn: the workspace guard, Read rules, hidden paths) and appends it to text
// as a <file path="..."> block; a file that could not be read is named with
// why, in its block.
func appendFiles(ctx context.Context, text string, files []string, run Runner) string {
	for _, f := range files {
		content, err := run.ReadFile(ctx, f)
		if err != nil {
			text += fmt.Sprintf("\n\n<file path=%q>\n[not included: %v]\n</file>", f, err)
			continue
		}
		text += fmt.Sprintf("\n\n<file path=%q>\n%s\n</file>", f, strings.TrimRight(content, "\n"))
	}
	return text
}

// ExpandMentions is a typed prompt with its @path mentions attached, as
// Claude Code attaches a mentioned file: the prompt as typed, then each
// file FileRefs finds in it read and appended exactly as a custom command's
// @file (appendFiles: the same Read tool call, the same guard and rules).
// A prompt without mentions is returned as it is.
func ExpandMentions(ctx context.Context, prompt string, run Runner) (string, error) {
	files := FileRefs(prompt)
	if len(files) == 0 {
		return prompt, nil
	}
	if run == nil {
		return "", fmt.Errorf("@%s needs a turn to be read in", files[0])
	}
	return appendFiles(ctx, prompt, files, run), nil
}
