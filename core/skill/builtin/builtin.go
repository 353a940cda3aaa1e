// Package builtin holds pincer's built-in skills — /commit, /pr, /review,
// /simplify, /update-config — as Claude Code's: each a prompt template
// (templates/NAME.md, embedded) expanded with context pincer gathers itself
// when the person runs it (real git through prompt.RunGit, pincer's config
// files through core/config), never by the model. The expansion is the turn's
// input; what the model then does (git commit, gh pr create, an Edit) goes
// through the permission engine and the approval queue like any tool call: a
// built-in skill grants no tool anything.
//
// Arguments are data: /review's range is validated as git refs and passed to
// git after --end-of-options, never to a shell; other arguments are quoted into
// the prompt as the person's words.
package builtin

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"text/template"
	"time"

	"pincer/core/config"
)

// GatherTimeout bounds all the commands one expansion runs together.
const GatherTimeout = 10 * time.Second

// Env is what an expansion reads: where it runs and what the person typed.
type Env struct {
	// Dir is the working directory (the workspace root); git runs there.
	Dir string
	// Args is the text after "/NAME " ($ARGUMENTS), trimmed.
	Args string
	// Paths are pincer's paths (config.PathsFrom); /update-config lists the
	// config files under them.
	Paths config.Paths
	// LookPath finds a program on PATH (nil: exec.LookPath); /pr asks it for gh.
	LookPath func(string) (string, error)
}

func (e Env) lookPath(name string) bool {
	lp := e.LookPath
	if lp == nil {
		lp = exec.LookPath
	}
	_, err := lp(name)
	return err == nil
}

// Skill is one built-in skill.
type Skill struct {
	// Name is what the person types after "/": "commit".
	Name string
	// Description is the one line completion and /help show.
	Description string
	// ArgumentHint is shown after the name in completion: "[REF|A..B] [focus]".
	ArgumentHint string
	// Gathers says in a few words what the expansion collects (README, /help).
	Gathers string
	// gather collects the template's data.
	gather func(ctx context.Context, env Env) (any, error)
}

// Expand gathers the skill's context in env (all of it within GatherTimeout
// of ctx) and returns the prompt the turn sends: the skill's template filled
// in. An error says what could not be gathered ("/commit: not a git
// repository: ..."); nothing is sent then.
func (s Skill) Expand(ctx context.Context, env Env) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, GatherTimeout)
	defer cancel()
	data, err := s.gather(ctx, env)
	if err != nil {
		return "", fmt.Errorf("/%s: %w", s.Name, err)
	}
	return render(s.Name, data)
}

//go:embed templates/*.md
var templateFS embed.FS

// templates returns the parsed templates, by skill name. They are parsed on
// the first render, not in package init (~0.6 ms that every pincer process,
// the sandbox helper included, would pay).
var templates = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("").Option("missingkey=error").Funcs(template.FuncMap{
		"fence": fence,
		"join":  func(l []string) string { return strings.Join(l, "\n") },
		// trimOrigin turns a remote branch into the branch name gh expects.
		"trimOrigin": func(b string) string { return strings.TrimPrefix(b, "origin/") },
	}).ParseFS(templateFS, "templates/*.md"))
})

// render fills in the template name.md with data.
func render(name string, data any) (string, error) {
	var b bytes.Buffer
	if err := templates().ExecuteTemplate(&b, name+".md", data); err != nil {
		return "", fmt.Errorf("/%s: template: %w", name, err)
	}
	return strings.TrimSpace(b.String()) + "\n", nil
}

// fence wraps text in a code fence longer than any run of backticks in it, so
// a diff holding ``` cannot close the block early.
func fence(lang, text string) string {
	n, run := 3, 0
	for _, r := range text {
		if r == '`' {
			run++
			n = max(n, run+1)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", n)
	return f + lang + "\n" + strings.TrimRight(text, "\n") + "\n" + f
}

// All returns the built-in skills, in the order /help lists them.
func All() []Skill {
	return []Skill{commitSkill, prSkill, reviewSkill, simplifySkill, updateConfigSkill}
}

// Lookup returns the built-in skill called name ("commit", without the "/").
func Lookup(name string) (Skill, bool) {
	for _, s := range All() {
		if s.Name == name {
			return s, true
		}
	}
	return Skill{}, false
}
