package sandbox

import (
	"os"
	"strings"
)

// BaseEnvAllow are the variables every command inherits from pincer's
// environment: identity, locale, terminal and temp dir. A trailing "*" matches a
// prefix.
var BaseEnvAllow = []string{
	"PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_*", "TERM", "TMPDIR", "SHELL", "TZ",
}

// ToolchainEnvAllow are variables that locate toolchains and their caches, or
// switch colour off. They hold paths and switches, not credentials, and dropping
// them would make `go test`, `cargo test` or a virtualenv behave differently
// inside a command than in the user's shell.
var ToolchainEnvAllow = []string{
	"GOPATH", "GOROOT", "GOCACHE", "GOMODCACHE", "GOFLAGS", "GOTOOLCHAIN", "GOENV",
	"GOPRIVATE", "GONOPROXY", "GONOSUMDB",
	"CARGO_HOME", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN",
	"PYENV_ROOT", "PYENV_VERSION", "VIRTUAL_ENV", "NVM_DIR", "JAVA_HOME",
	"XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
	"SSL_CERT_FILE", "SSL_CERT_DIR", "NO_COLOR",
}

// nonInteractiveEnv is added to every command's environment so that pagers,
// editors and credential prompts never wait for a terminal that is not there
// (a command has no stdin and no terminal: anything that waits for one hangs
// until the timeout). The editor variables name `true`, which exits at once
// and leaves the file as it is: `git commit` without -m keeps the prepared
// message (and fails on an empty one), `git rebase -i` runs its todo list
// unchanged. GIT_EDITOR and GIT_SEQUENCE_EDITOR beat a gitconfig's
// core.editor and sequence.editor (which beat EDITOR/VISUAL), so a user's
// `sequence.editor = vim` does not hang a rebase. MANPAGER, SYSTEMD_PAGER and
// GIT_PAGER beat PAGER for their programs; GIT_MERGE_AUTOEDIT=no keeps `git
// merge` from opening the editor; GIT_TERMINAL_PROMPT=0 and
// GCM_INTERACTIVE=never make git and Git Credential Manager fail instead of
// asking for a password; DEBIAN_FRONTEND=noninteractive (apt, dpkg) and
// PIP_NO_INPUT=1 (pip) take defaults instead of asking.
var nonInteractiveEnv = []string{
	"PAGER=cat",
	"GIT_PAGER=cat",
	"MANPAGER=cat",
	"SYSTEMD_PAGER=cat",
	"GIT_EDITOR=true",
	"GIT_SEQUENCE_EDITOR=true",
	"EDITOR=true",
	"VISUAL=true",
	"GIT_MERGE_AUTOEDIT=no",
	"GIT_TERMINAL_PROMPT=0",
	"GCM_INTERACTIVE=never",
	"DEBIAN_FRONTEND=noninteractive",
	"PIP_NO_INPUT=1",
}

// CommandEnv returns the environment commands run with: the variables of
// pincer's own environment named by BaseEnvAllow or ToolchainEnvAllow, then the
// non-interactive settings (nonInteractiveEnv: PAGER=cat GIT_PAGER=cat
// GIT_EDITOR=true GIT_SEQUENCE_EDITOR=true EDITOR=true VISUAL=true
// GIT_TERMINAL_PROMPT=0 and the others listed there), then GitSafeEnv (git runs no helper a
// repository configures), then extra (KEY=VALUE). A later entry
// replaces an earlier one with the same key. Everything else — API keys,
// tokens, pincer's own settings — never reaches a command.
func CommandEnv(extra ...string) []string {
	return buildEnv(os.Environ(), nil, extra...)
}

// CommandEnvAllow is CommandEnv that also passes on the variables named by
// allow (exact names, or prefixes ending in "*"), with the PATH the person
// started pincer with (an activated .venv/bin, node_modules/.bin's absolute
// entries), not the one TrustOwnPATH left pincer's own lookups: the
// environment of the commands the Executor runs (Bash, background shells).
func CommandEnvAllow(allow []string, extra ...string) []string {
	environ := os.Environ()
	if ownPATHApplied.Load() {
		environ = append(environ, "PATH="+personPATH) // mergeEnv: the later wins
	}
	return buildEnv(environ, allow, extra...)
}

// buildEnv is CommandEnv over a given environment.
func buildEnv(environ, allow []string, extra ...string) []string {
	kept := make([]string, 0, len(environ)+len(nonInteractiveEnv)+len(extra))
	for _, kv := range environ {
		key, _, ok := strings.Cut(kv, "=")
		if ok && key != "" && (envAllowed(key, BaseEnvAllow) || envAllowed(key, ToolchainEnvAllow) || envAllowed(key, allow)) {
			if key == "PATH" {
				kv = "PATH=" + AbsolutePath(kv[len("PATH="):])
			}
			kept = append(kept, kv)
		}
	}
	return mergeEnv(append(append(append(kept, nonInteractiveEnv...), GitSafeEnv()...), extra...))
}

// mergeEnv returns the KEY=VALUE entries of kvs with one entry per key: a later
// entry replaces an earlier one with the same key, in the earlier one's place.
func mergeEnv(kvs []string) []string {
	index := map[string]int{}
	out := make([]string, 0, len(kvs))
	for _, kv := range kvs {
		key, _, _ := strings.Cut(kv, "=")
		if i, ok := index[key]; ok {
			out[i] = kv
			continue
		}
		index[key] = len(out)
		out = append(out, kv)
	}
	return out
}

// envAllowed reports whether key matches one of patterns: an exact name, or a
// prefix followed by "*".
func envAllowed(key string, patterns []string) bool {
	for _, p := range patterns {
		if prefix, ok := strings.CutSuffix(p, "*"); ok {
			if strings.HasPrefix(key, prefix) {
				return true
			}
		} else if key == p {
			return true
		}
	}
	return false
}

// AbsolutePath returns the PATH value path without its relative entries: "",
// ".", "node_modules/.bin" and the like name directories relative to wherever a
// command runs — the workspace, which the model writes — so a "read-only" `ls`
// or `git` could run a program the repository ships. Absolute entries keep
// their order.
func AbsolutePath(path string) string {
	var keep []string
	for _, dir := range strings.Split(path, ":") {
		if strings.HasPrefix(dir, "/") {
			keep = append(keep, dir)
		}
	}
	return strings.Join(keep, ":")
}
