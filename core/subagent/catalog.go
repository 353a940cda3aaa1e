package subagent

import (
	"fmt"
	"strings"
)

// Catalog is a session's agent definitions, built once (Discover) and then
// read only: safe for concurrent readers.
type Catalog struct {
	defs   []Definition
	byName map[string]int // lower-cased name -> index
	// Problems are the files that contributed nothing (unreadable, not
	// parsing: FILE:LINE) and the definitions passed over for another of
	// their name (Shadowed).
	Problems []Problem
}

// Problem is a file that contributes nothing, or a definition passed over for
// another of its name, with why.
type Problem struct {
	File string
	Err  error
	// Shadowed is true when the file parsed but a definition before it has
	// the name (a project agent named as a built-in).
	Shadowed bool
}

func (p Problem) Error() string { return p.Err.Error() }

// NewCatalog is a catalog of defs in order; a later definition of a name
// already held (compared without case: "explore" is Explore's) is a Problem.
func NewCatalog(defs ...Definition) *Catalog {
	c := &Catalog{byName: map[string]int{}}
	for _, d := range defs {
		c.add(d)
	}
	return c
}

// add keeps d unless its name is taken.
func (c *Catalog) add(d Definition) {
	key := strings.ToLower(d.Name)
	if i, ok := c.byName[key]; ok {
		first := c.defs[i]
		c.Problems = append(c.Problems, Problem{File: d.Path, Shadowed: true,
			Err: fmt.Errorf("%s agent %s (%s) is not used: the %s agent %s comes first", d.Origin, d.Name, pathOr(d), first.Origin, first.Name)})
		return
	}
	c.byName[key] = len(c.defs)
	c.defs = append(c.defs, d)
}

func pathOr(d Definition) string {
	if d.Path != "" {
		return d.Path
	}
	return "built in"
}

// Lookup returns the definition named name (the Agent tool's subagent_type):
// the exact name, else the one name equal to it without case. A nil catalog
// holds nothing.
func (c *Catalog) Lookup(name string) (Definition, bool) {
	if c == nil {
		return Definition{}, false
	}
	i, ok := c.byName[strings.ToLower(strings.TrimSpace(name))]
	if !ok {
		return Definition{}, false
	}
	return c.defs[i], true
}

// Definitions lists the catalog's definitions in precedence order (built-in,
// project, user, plugin; by file within a layer). The slice is a copy.
func (c *Catalog) Definitions() []Definition {
	if c == nil {
		return nil
	}
	return append([]Definition(nil), c.defs...)
}
