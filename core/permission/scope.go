package permission

// Scope is how far a person's approval reaches. The strings are the wire values of
// permission.resolved's scope field and of the store's audit records; they never
// change.
type Scope string

// Approval scopes, as Claude Code's approval prompt offers them.
const (
	// ScopeOnce allows (or denies) this one tool call. A denial always has it.
	ScopeOnce Scope = "once"
	// ScopeSession also keeps exact allow rules for the rest of the session (in
	// the store).
	ScopeSession Scope = "session"
	// ScopeAlways also saves those rules to the project's
	// .pincer/settings.local.toml.
	ScopeAlways Scope = "always"
)

// Remembers reports whether an approval of this scope keeps rules beyond the one
// call (session and always).
func (s Scope) Remembers() bool { return s == ScopeSession || s == ScopeAlways }
