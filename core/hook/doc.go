// Package hook runs user-defined shell commands at fixed points of a session, speaking
// Claude Code's hooks protocol so that hooks written for Claude Code work in pincer
// unchanged. The reference followed throughout is Claude Code's hooks reference
// (https://code.claude.com/docs/en/hooks, "Hooks reference"); comments cite its
// sections by name.
//
// # Events
//
// Seven events are supported: PreToolUse, PostToolUse, UserPromptSubmit, Stop,
// SessionStart, SessionEnd and PreCompact. Other Claude Code events found in a
// .claude/settings.json file (Notification, SubagentStop, ...) are ignored: pincer
// never fires them.
//
// # Configuration
//
// Definitions come from five files, all merged (every matching hook of every file
// runs), in this order, which is also the order their messages are reported in:
//
//	$PINCER_HOME/config.toml, else $XDG_CONFIG_HOME/pincer/config.toml, else ~/.config/pincer/config.toml
//	~/.claude/settings.json
//	<project>/.pincer/config.toml
//	<project>/.claude/settings.json
//	<project>/.claude/settings.local.json
//
// pincer's TOML form is one array of tables per event:
//
//	[[hooks.PreToolUse]]
//	matcher = "Edit|Write"
//	command = "./scripts/check.sh"
//	timeout = 30          # seconds; default 60
//
// Claude Code's JSON form ("Configuration" in the reference) nests command hooks in
// matcher groups: {"hooks": {"PreToolUse": [{"matcher": "Edit|Write", "hooks":
// [{"type": "command", "command": "...", "timeout": 30}]}]}}. Hook types other than
// "command" (http, prompt, agent, mcp_tool) are reported and skipped.
//
// A missing file is not an error. A file that does not parse yields one *FileError
// naming it (and the line, when the parser knows it) and contributes nothing; an
// invalid entry (empty command, bad matcher) yields a *FileError and is skipped
// while the rest of its file loads. Either way the other files still load.
//
// # Matchers
//
// See ParseMatcher: empty or "*" matches everything, a plain list of names such as
// "Edit|Write" matches those names exactly, anything else is a Go regular expression
// that must match the whole name. Tool events match the tool name; SessionStart
// matches its source (startup, resume, clear, compact); PreCompact its trigger
// (manual, auto); the other events ignore the matcher.
//
// # Running
//
// Every matching hook of an event runs at once, in parallel ("Hook execution
// details"); identical command strings run once. Each runs as `bash -c COMMAND`
// (`sh -c` when bash is not on PATH) in the project directory, in its own process
// group, with the event's JSON on standard input ("Hook input") and the parent's
// environment plus CLAUDE_PROJECT_DIR and PINCER_PROJECT_DIR set to the project
// directory. A hook that outlives its timeout (default 60 s) or the caller's
// context gets SIGTERM, and its whole process group SIGKILL a moment later; a timed
// out hook is a non-blocking error, never a block.
//
// # Results
//
// The exit code decides ("Simple: exit code"): 0 is success, and standard output is
// read as JSON when it is a JSON object ("Advanced: JSON output"), otherwise as plain
// text (added as context for UserPromptSubmit and SessionStart, kept for verbose
// display otherwise); 2 is a blocking error whose standard error is the reason, with
// a meaning per event (see each Runner method); any other code is a non-blocking
// error shown to the user, and execution continues.
//
// When hooks disagree on a tool call, deny beats ask beats allow. A hook's "allow"
// only skips pincer's approval prompt: it never overrides a deny rule or the
// sandbox — enforcing that is the caller's job, as in Claude Code.
//
// A Runner is immutable once built and safe for concurrent use. Its methods never
// fail: every problem with a hook becomes a message in the result's Errors. A nil
// *Runner runs nothing.
package hook
