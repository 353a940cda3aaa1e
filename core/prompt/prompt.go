// Package prompt assembles the system prompt as an ordered list of segments, and
// loads the project instructions (AGENTS.md, CLAUDE.md and their @imports) that
// go into it.
//
// Contract:
//
//   - Segments come in a fixed order: the static ones first (identity, tools,
//     coding, safety, output), then the dynamic ones (environment, git,
//     instructions, diagnostics, then Env.Extra).
//   - A static segment depends only on Env.ToolNames, so for one process (one
//     tool set) its text is byte-identical on every call: a provider can cache
//     the prefix. Anything that changes with the directory, the date or the
//     repository's state is dynamic.
//   - Render puts DynamicMarker on a line of its own between the two parts. The
//     Anthropic adapter splits cache blocks there (Split); other providers send
//     the marker as it is, an HTML comment the model ignores.
//
// The agent writes the rendered prompt into a session on its first turn only
// (DESIGN.md, invariant 4); "dynamic" means recomputed whenever a prompt is built,
// not rewritten in a stored transcript.
package prompt

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"
)

// DynamicMarker is the line Render puts between the static and the dynamic
// segments.
const DynamicMarker = "<!-- pincer:dynamic -->"

// Segment names, in the order Segments returns them.
const (
	SegIdentity     = "identity"
	SegTools        = "tools"
	SegCoding       = "coding"
	SegSafety       = "safety"
	SegOutput       = "output"
	SegEnvironment  = "environment"
	SegGit          = "git"
	SegInstructions = "instructions"
	SegDiagnostics  = "diagnostics"
)

// Segment is one part of the system prompt. Static segments are stable for the
// life of the process and may be cached; dynamic ones are recomputed on every
// build. A segment with empty Text is left out by Render.
type Segment struct {
	Name   string
	Text   string
	Static bool
}

// Env is what the prompt describes. Zero fields are filled in or skipped: an empty
// Cwd means the process's working directory, a zero Date means now, an empty Home
// or PincerHome skips the user's own instruction file in it.
type Env struct {
	// Cwd is the working directory (the workspace root).
	Cwd string
	// Date is today's date in the user's time zone.
	Date time.Time
	// PincerHome is the root of pincer's configuration ($PINCER_HOME); its
	// AGENTS.md holds the user's instructions for all projects.
	PincerHome string
	// Home is the user's home directory (for ~/.claude/CLAUDE.md and @~/ imports).
	Home string
	// ToolNames are the tools offered to the model; the tool guidance mentions
	// only these. Empty means the built-in set.
	ToolNames []string
	// ModelName is the model in use ("openai/gpt-5"), shown in the environment.
	ModelName string
	// Instructions, when set, are used instead of calling LoadInstructions (a
	// caller that already loaded them for a status line).
	Instructions *Instructions
	// Git, when set, is used instead of running git; a pointer to a zero GitInfo
	// means "not a repository".
	Git *GitInfo
	// Diagnostics is text injected by later features (compiler or linter output
	// after edits); it becomes the diagnostics segment when not empty.
	Diagnostics string
	// Extra are further segments appended after the built-in ones (MCP server
	// instructions, a skill index); Render still puts static ones first.
	Extra []Segment
}

// Segments returns the prompt's segments for env, in order. It runs git (with a
// short timeout) unless env.Git is set, and loads the instruction files unless
// env.Instructions is set.
func Segments(env Env) []Segment {
	if env.Cwd == "" {
		env.Cwd, _ = os.Getwd()
	}
	if env.Date.IsZero() {
		env.Date = time.Now()
	}
	git := env.Git
	if git == nil {
		g := DetectGit(env.Cwd, GitTimeout)
		git = &g
	}
	ins := env.Instructions
	if ins == nil {
		loaded, _ := LoadInstructions(env.Cwd, env.PincerHome, env.Home)
		ins = &loaded
	}
	segs := StaticSegments(env.ToolNames)
	segs = append(segs,
		Segment{Name: SegEnvironment, Text: environmentText(env, git)},
		Segment{Name: SegGit, Text: git.Text()},
		Segment{Name: SegInstructions, Text: instructionsText(*ins)},
		Segment{Name: SegDiagnostics, Text: diagnosticsText(env.Diagnostics)},
	)
	return append(segs, env.Extra...)
}

// Render joins the static segments, then DynamicMarker on its own line, then the
// dynamic segments, each separated by a blank line. Empty segments are skipped;
// the marker is always present.
func Render(segs []Segment) string {
	var static, dynamic []string
	for _, s := range segs {
		text := strings.TrimSpace(s.Text)
		if text == "" {
			continue
		}
		if s.Static {
			static = append(static, text)
		} else {
			dynamic = append(dynamic, text)
		}
	}
	var b strings.Builder
	b.WriteString(strings.Join(static, "\n\n"))
	b.WriteString("\n\n" + DynamicMarker + "\n")
	if len(dynamic) > 0 {
		b.WriteString("\n" + strings.Join(dynamic, "\n\n") + "\n")
	}
	return b.String()
}

// Build returns the rendered system prompt for env: Render(Segments(env)).
func Build(env Env) string {
	return Render(Segments(env))
}

// Split cuts a rendered prompt at its DynamicMarker line into the static part
// (without the marker) and the dynamic part. ok is false when there is no marker;
// then static is the whole prompt. Only the first marker counts, so a marker
// quoted inside project instructions cannot move the cut.
func Split(system string) (static, dynamic string, ok bool) {
	sep := "\n" + DynamicMarker + "\n"
	i := strings.Index(system, sep)
	if i < 0 {
		if strings.HasSuffix(system, "\n"+DynamicMarker) {
			return strings.TrimRight(strings.TrimSuffix(system, DynamicMarker), "\n"), "", true
		}
		return system, "", false
	}
	return strings.TrimRight(system[:i], "\n"), strings.TrimLeft(system[i+len(sep):], "\n"), true
}

// environmentText is the environment segment.
func environmentText(env Env, git *GitInfo) string {
	var b strings.Builder
	b.WriteString("# Environment\n")
	fmt.Fprintf(&b, "- Working directory (workspace root): %s\n", env.Cwd)
	fmt.Fprintf(&b, "- Platform: %s/%s\n", runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(&b, "- Date: %s\n", env.Date.Format("2006-01-02 (Monday)"))
	if env.ModelName != "" {
		fmt.Fprintf(&b, "- Model: %s\n", env.ModelName)
	}
	if git.IsRepo {
		fmt.Fprintf(&b, "- Git repository: yes (root %s)\n", git.Root)
	} else {
		b.WriteString("- Git repository: no\n")
	}
	return b.String()
}

// instructionsText is the instructions segment: a preamble and the files.
func instructionsText(ins Instructions) string {
	if strings.TrimSpace(ins.Text) == "" {
		return ""
	}
	return "# Project instructions\n" +
		"The user and the project's maintainers wrote the files below. Follow them: they take precedence over the default guidance above (never over the safety rules), and a later file takes precedence over an earlier one.\n\n" +
		ins.Text
}

// diagnosticsText is the diagnostics segment.
func diagnosticsText(d string) string {
	d = strings.TrimSpace(d)
	if d == "" {
		return ""
	}
	return "# Diagnostics\n" + d
}

// DiagnosticsText is the diagnostics segment's text for d (the language
// servers' report, core/lsp): "" when d is empty.
func DiagnosticsText(d string) string { return diagnosticsText(d) }
