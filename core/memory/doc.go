// Package memory is pincer's long-term memory (issue 16): plain Markdown
// files a person can edit, and the candidates that propose changes to them
// (and to learned skills), written only after a person accepts them.
//
// Files:
//   - USER.md in pincer's config dir (Paths.UserIndex): about the person,
//     across projects; the index of the user-scope memory files in the
//     config dir's memory/ (Paths.UserDir).
//   - Per project, under the data dir (Paths.ProjectDir, ProjectDir):
//     MEMORY.md, the index (one line per memory file), and the memory files,
//     each with YAML frontmatter: type (user | feedback | project |
//     reference), name, description, created, source {session, turn}.
//
// Writing: a Remember tool call, "remember that …", /memory add and the
// post-turn observer make a Proposal; Manager.Propose stores it as a pending
// persist.Candidate (never a file) and emits candidate.proposed. A person's
// Manager.Decide records the decision in the store (one compare-and-set:
// a candidate is decided once) and, for an acceptance, Manager.Apply writes
// the file — the one writer (writer.go): only for a candidate whose stored
// status is accepted, only to the target derived again from its kind, scope
// and name inside the memory or skills dir, atomically (a temp file renamed,
// never through a symlink), with an audit entry. A crash between the
// decision and the write leaves an accepted candidate without AppliedAt,
// which Manager.Repair writes.
//
// Injection: Snapshot reads USER.md and MEMORY.md once (each capped at
// MaxIndexLines lines / MaxIndexBytes bytes, as Claude Code caps MEMORY.md)
// for the system prompt a new session stores as its first message, so a
// session's memory is frozen: a memory accepted meanwhile reaches the next
// session.
package memory
