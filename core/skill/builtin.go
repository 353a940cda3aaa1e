package skill

import (
	"fmt"
	"slices"
	"sync"
)

var (
	builtinMu sync.Mutex
	builtins  []Skill
)

// RegisterBuiltin adds a built-in skill (called from a package's init, as the
// built-in skills' package does). Its Origin and Kind are set to builtin and
// skill; UserInvocable is true. It panics on an invalid or repeated name: a
// programming error, caught by any test that links the package.
func RegisterBuiltin(s Skill) {
	if err := checkName(s.Name); err != nil {
		panic(fmt.Sprintf("skill.RegisterBuiltin: %v", err))
	}
	builtinMu.Lock()
	defer builtinMu.Unlock()
	if slices.ContainsFunc(builtins, func(b Skill) bool { return b.Name == s.Name }) {
		panic("skill.RegisterBuiltin: " + s.Name + " registered twice")
	}
	s.Origin, s.Kind, s.UserInvocable = OriginBuiltin, KindSkill, true
	builtins = append(builtins, s)
}

// Builtins returns the registered built-in skills, in registration order.
func Builtins() []Skill {
	builtinMu.Lock()
	defer builtinMu.Unlock()
	return slices.Clone(builtins)
}
