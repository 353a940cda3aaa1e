package learn

import "fmt"

// Op is what a proposal does to the skills dir: add a new skill, or update a
// learned one of the same name.
type Op string

// Operations of a proposal.
const (
	OpAdd    Op = "add"
	OpUpdate Op = "update"
)

// Taken says what holds a name now. File is the SKILL.md of the skill that
// has it ("" for a built-in, a command, a pending candidate's name); Learned
// is true when that skill is a learned one (its frontmatter has source:).
type Taken struct {
	File    string
	Learned bool
}

// Proposal is the draft to put before the person, under the name it may
// take, with the operation and the file it would write.
type Proposal struct {
	Draft  Draft
	Op     Op
	Target string
}

// Decide picks the name of a proposal: the draft's own, else the fallback
// name (fallbackName, from the request), the first that is free — or, for an
// update, held by a learned skill whose file is the Target (the same skill
// learned again). taken reports what holds a name (ok false: free); target is
// the file a name would be written to (Target bound to a scope). A name held
// by anything else — a built-in, a command, a hand-written or a plugin's
// skill, another pending proposal — is never proposed: no proposal shadows
// one. reason says why there is none.
func Decide(d Draft, fallbackName string, taken func(name string) (Taken, bool), target func(name string) (string, error)) (Proposal, string) {
	names := []string{d.Name}
	if fallbackName != "" && fallbackName != d.Name {
		names = append(names, fallbackName)
	}
	var why string
	for _, n := range names {
		if err := ValidName(n); err != nil {
			why = err.Error()
			continue
		}
		file, err := target(n)
		if err != nil {
			why = err.Error()
			continue
		}
		t, held := taken(n)
		if !held {
			d.Name = n
			return Proposal{Draft: d, Op: OpAdd, Target: file}, ""
		}
		if t.Learned && t.File == file {
			d.Name = n
			return Proposal{Draft: d, Op: OpUpdate, Target: file}, ""
		}
		why = fmt.Sprintf("the name %q is taken", n)
	}
	if why == "" {
		why = "no name for the skill"
	}
	return Proposal{}, why
}
