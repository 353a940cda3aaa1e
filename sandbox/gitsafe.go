package sandbox

import (
	"slices"
	"strconv"
)

// gitSafeConfig are the git settings, as key/value pairs, that keep a git
// command from running programs a repository configures. They are passed with
// git's "command" scope (GIT_CONFIG_COUNT or -c), which wins over every config
// file, .git/config included:
//
//   - core.fsmonitor=false: `git status` (and anything that refreshes the
//     index) runs core.fsmonitor as a command;
//   - core.hooksPath=/dev/null: no hook runs (git looks for /dev/null/NAME);
//   - core.pager=cat: no pager command (GIT_PAGER=cat and --no-pager too);
//   - credential.helper= (empty): resets the helper list, so no credential
//     helper runs on fetch or push;
//   - log.showSignature=false: `git log` would otherwise run gpg.program;
//   - submodule.recurse=false: no recursion into submodules, whose own
//     config files are not covered by pincer's protected paths everywhere;
//   - protocol.ext.allow=never: no "ext::COMMAND" remote (which runs
//     COMMAND) even where the repository allows it, e.g. for the lazy fetch
//     of a partial clone.
//
// The helpers whose key names a driver (.gitattributes) or a remote —
// diff.<driver>.textconv and .command, filter.<driver>.clean, smudge and
// process, remote.<name>.uploadpack — and diff.external, core.sshCommand,
// gpg.program, whose off value is not empty (an empty diff.external or
// textconv makes git fail "cannot run", 2.39), cannot be listed here:
// GitHelperOverrides finds them in the repository's configuration for each
// command (and in its submodules' configs under .git/modules/) and overrides
// each with a harmless value (GitSafeEnvFor). What no override reaches: a
// repository other than the one around the command's directory (`git -C
// other`, `cd sub && git`, a nested or embedded repository whose .git is a
// directory in the work tree, also when status looks into it as a gitlink)
// and core.gitProxy (its first match wins, so a repository's entry beats the
// command scope; git:// only). Pincer's own diff, log -p and show also pass
// --no-ext-diff --no-textconv (GitSafeDiffArgs). All of them need a setting in
// a config file, which the sandbox keeps read-only (.git/config and the
// redirects to another one: commondir, a .git file) or out of reach
// (~/.gitconfig).
var gitSafeConfig = [][2]string{
	{"core.fsmonitor", "false"},
	{"core.hooksPath", "/dev/null"},
	{"core.pager", "cat"},
	{"credential.helper", ""},
	{"log.showSignature", "false"},
	{"submodule.recurse", "false"},
	{"protocol.ext.allow", "never"},
}

// GitSafeEnv returns KEY=VALUE entries that disable every helper program a
// repository's configuration could make git run on ordinary commands
// (status, diff, log, show, add, commit): the settings above through
// GIT_CONFIG_COUNT / GIT_CONFIG_KEY_<n> / GIT_CONFIG_VALUE_<n> (git 2.31+,
// "command" scope, so they beat .git/config), plus GIT_PAGER=cat and
// GIT_TERMINAL_PROMPT=0 (no credential prompt). Every command gets them
// (CommandEnv), and Run adds the overrides for the repository around the
// command's directory (GitSafeEnvFor); pincer's own git should get them too,
// with GitSafeArgs.
// The caller's environment must not carry GIT_CONFIG_PARAMETERS from
// elsewhere (CommandEnv drops it).
func GitSafeEnv() []string {
	return gitSafeEnvWith(nil)
}

// gitSafeEnvWith is GitSafeEnv with more settings (GitHelperOverrides)
// numbered after gitSafeConfig's: the one place GIT_CONFIG_COUNT is counted.
func gitSafeEnvWith(more [][2]string) []string {
	all := append(slices.Clone(gitSafeConfig), more...)
	out := []string{"GIT_CONFIG_COUNT=" + strconv.Itoa(len(all))}
	for i, kv := range all {
		n := strconv.Itoa(i)
		out = append(out, "GIT_CONFIG_KEY_"+n+"="+kv[0], "GIT_CONFIG_VALUE_"+n+"="+kv[1])
	}
	return append(out, "GIT_PAGER=cat", "GIT_TERMINAL_PROMPT=0")
}

// GitSafeArgs returns the global options that go before a git subcommand
// (`git ARGS... status`) to the same effect as GitSafeEnv: `-c KEY=VALUE` for
// each setting and --no-pager. For diff, log -p and show, add
// GitSafeDiffArgs after the subcommand.
func GitSafeArgs() []string {
	var out []string
	for _, kv := range gitSafeConfig {
		out = append(out, "-c", kv[0]+"="+kv[1])
	}
	return append(out, "--no-pager")
}

// GitSafeDiffArgs are the options of git diff, log and show that turn off
// the external diff program and textconv filters, which no config override
// can disable.
func GitSafeDiffArgs() []string {
	return slices.Clone([]string{"--no-ext-diff", "--no-textconv"})
}
