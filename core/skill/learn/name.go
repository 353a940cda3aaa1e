package learn

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// MaxName caps a learned skill's name (Agent Skills: 64 characters).
const MaxName = 64

// validName is Agent Skills' name form: lower-case letters, digits and single
// hyphens, a letter first, no hyphen at the end. It is a directory name too:
// no dot, no slash, nothing a path could read as a step.
var validName = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// Reserved are names a learned skill never takes: the workbench's and the
// agent's own commands (a skill of that name would be shadowed, or shadow
// one), pincer's built-in skills, and Claude Code's built-in commands a
// person would expect. A test in ui/cli holds the workbench's table to it.
var Reserved = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`
		help clear sessions resume model mode cost agents worktrees bashes mcp context compact init
		loop schedule tab quit exit memory skills rewind checkpoint checkpoints
		commit pr review simplify update-config
		config permissions allowed-tools status doctor login logout hooks ide add-dir export vim theme usage
		plugin plugins todos bug upgrade terminal-setup release-notes privacy-settings statusline
		output-style security-review pr-comments install-github-app migrate-installer agent team
		tasks task approve reject trust run serve new`) {
		Reserved[n] = true
	}
}

// ValidName says why name cannot name a learned skill (nil: it can): not
// Agent Skills' form (lower case, digits, single hyphens, a letter first), too
// long, or Reserved.
func ValidName(name string) error {
	switch {
	case name == "":
		return errors.New("empty skill name")
	case len(name) > MaxName:
		return fmt.Errorf("skill name %q is longer than %d characters", cut(name, MaxName), MaxName)
	case !validName.MatchString(name):
		return fmt.Errorf("skill name %q: only lower-case letters, digits and single hyphens, a letter first", name)
	case Reserved[name]:
		return fmt.Errorf("skill name %q is a command's", name)
	}
	return nil
}

// stopWords are left out of a name made from a request.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but to of in on for with at by from into onto as is are be
		been it its this that these those then than so just please can could would should will you your me my
		we our us i all some any up now also there here do does did make sure let lets need want`) {
		stopWords[w] = true
	}
}

// maxNameWords is how many words of the request a made name keeps.
const maxNameWords = 4

// NameFrom makes a skill name from a request: its first maxNameWords words of
// ASCII letters and digits that are no stop words, lower case, joined by
// hyphens ("Run the tests and fix the lint errors" -> "run-tests-fix-lint").
// A name that would start with a digit gets "do-" before it; "" when the
// request has no such word or the name is not valid (a reserved one).
func NameFrom(request string) string {
	var words []string
	for _, w := range strings.FieldsFunc(strings.ToLower(request), func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < '0' || r > '9')
	}) {
		if stopWords[w] || len(w) < 2 {
			continue
		}
		if len(w) > 20 {
			w = w[:20]
		}
		words = append(words, w)
		if len(words) == maxNameWords {
			break
		}
	}
	name := strings.Join(words, "-")
	if name != "" && name[0] >= '0' && name[0] <= '9' {
		name = "do-" + name
	}
	if ValidName(name) != nil {
		return ""
	}
	return name
}
