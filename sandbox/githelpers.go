package sandbox

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// GitHelperTimeout bounds the `git config` GitHelperOverrides runs.
const GitHelperTimeout = 2 * time.Second

// gitHelperRegexp selects, for `git config --get-regexp` (an extended regular
// expression matched against the key with its section and name in lower
// case), the settings that name a program git runs on ordinary read-only
// commands and whose key carries a name no static list can know (a driver
// from .gitattributes, a remote), or whose safe value is the default:
//
//   - diff.external, diff.<driver>.command: the external diff of `git diff`,
//     `git diff --cached`, `git diff --no-index`, `git show`, `log --ext-diff`;
//   - diff.<driver>.textconv: diff, log -p, show, blame, `grep --textconv`;
//   - filter.<driver>.clean, .smudge, .process: status and diff run the clean
//     filter on a file whose stat data changed, add and checkout run them too;
//   - gpg.program, gpg.<format>.program: `--show-signature` and the %G
//     placeholders of --format;
//   - core.sshCommand, core.askPass, remote.<name>.uploadpack and
//     .receivepack: fetch and push, and the lazy fetch a partial clone makes
//     from diff, log -p, show or blame when an object is missing.
const gitHelperRegexp = `^(diff\.external|diff\..+\.(command|textconv)|filter\..+\.(clean|smudge|process)|gpg\.(.+\.)?program|core\.(sshcommand|askpass)|remote\..+\.(uploadpack|receivepack))$`

// gitHelpersUnchecked is the override GitHelperOverrides returns when it could
// not list the repository's helpers (a timeout, a config git cannot parse, on
// which git would fail anyway, a repository git refuses): an invalid key, so
// that every git run with it fails ("error: invalid key: pincer.…") instead
// of running a helper it could not switch off.
var gitHelpersUnchecked = [2]string{"pincer.git helpers unchecked (pincer could not list this repository's helper programs, so git is refused; try again)", "true"}

// GitHelperOverrides returns the config overrides (key, value pairs for
// GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n or -c) that neutralise every helper
// program the git repository around dir configures, or nil when dir is not in
// a repository (no .git, and no bare repository, in dir or above it: then no
// process runs). It lists the repository's settings with one `git config
// --show-scope --name-only --null --get-regexp` (gitHelperRegexp), and those
// of each submodule (under the git directory's modules/, or in the work tree
// where .gitmodules says: submoduleConfigs, inTreeSubmoduleConfigs) with one
// more each (a child git in a submodule, which `git status` runs, gets the
// same environment), all run with GitSafeArgs and OwnGitEnv within
// GitHelperTimeout, and replaces each one set in a scope other than the
// user's own (global: ~/.gitconfig and what it includes) and the
// administrator's (system) — the local .git/config, a worktree's config, a
// submodule's, the files they include:
//
//	diff.external, diff.D.command    a POSIX sh function that prints
//	                                 "diff --git a/P b/P" and `diff -u` of the
//	                                 two files git passes, and returns 0
//	diff.D.textconv                  cat (the identity conversion)
//	filter.D.clean, .smudge,         "" (no filter) and filter.D.required=false
//	.process                         (content goes in and out unconverted)
//	gpg.program, gpg.openpgp.program gpg; gpg.x509.program gpgsm;
//	                                 gpg.ssh.program ssh-keygen (the defaults)
//	core.sshCommand                  ssh
//	core.askPass                     "" (no askpass; GIT_TERMINAL_PROMPT=0)
//	remote.R.uploadpack, receivepack git-upload-pack, git-receive-pack
//
// cat and diff are given by absolute path when found in /usr/bin or /bin.
// Settings of the user's global and the system config are kept (git-lfs's
// filter, whose blanking would make `git add` store raw content; a
// diff.external the user chose): only the user and the administrator write
// them. When the listing fails (a timeout, a config git cannot parse,
// git missing while a .git is there) the result is a single invalid key that
// makes git refuse to run. An exit status of 1 (nothing configured) gives nil.
func GitHelperOverrides(ctx context.Context, dir string) [][2]string {
	if dir == "" {
		if wd, err := os.Getwd(); err == nil {
			dir = wd
		}
	}
	gitDir, top, ok := findRepo(dir)
	if !ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, GitHelperTimeout)
	defer cancel()
	listing, ok := listHelpers(ctx, "-C", dir)
	if !ok {
		return [][2]string{gitHelpersUnchecked}
	}
	// The submodules' own configs: `git status` runs a populated submodule's
	// clean filter (a child git in it, with this environment), diff
	// --submodule=diff its textconv and external diff.
	configs := submoduleConfigs(gitDir)
	if top != "" {
		in, ok := inTreeSubmoduleConfigs(ctx, top)
		if !ok {
			return [][2]string{gitHelpersUnchecked}
		}
		for _, c := range in {
			if !slices.Contains(configs, c) {
				configs = append(configs, c)
			}
		}
	}
	for _, cfg := range configs {
		more, ok := listHelpers(ctx, "--file", cfg, "--includes")
		if !ok {
			return [][2]string{gitHelpersUnchecked}
		}
		listing += more
	}
	return helperOverrides(listing)
}

// listHelpers runs `git config --show-scope --name-only --null --get-regexp
// gitHelperRegexp` with where (-C DIR before the subcommand, or --file F
// after it) and returns its output; ok is false when git failed other than
// by finding nothing.
func listHelpers(ctx context.Context, where ...string) (string, bool) {
	args := GitSafeArgs()
	if where[0] == "-C" {
		args = append(args, where...)
		where = nil
	}
	args = append(args, "--no-optional-locks", "config")
	args = append(append(args, where...), "--show-scope", "--name-only", "--null", "--get-regexp", gitHelperRegexp)
	return ownGitConfig(ctx, args)
}

// ownGitConfig runs a `git config` listing (args) as pincer's own git
// (OwnGitEnv) and returns its output; git's exit status 1 ("nothing found")
// is an empty listing, any other failure (or ctx ending) makes ok false.
func ownGitConfig(ctx context.Context, args []string) (out string, ok bool) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Env = OwnGitEnv(os.Environ())
	cmd.WaitDelay = 200 * time.Millisecond
	b, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		return "", errors.As(err, &ee) && ee.ExitCode() == 1 && ctx.Err() == nil
	}
	return string(b), true
}

// inTreeSubmoduleConfigs returns the config files of the submodules that
// top/.gitmodules registers and whose .git is a directory of their own in the
// work tree (`git submodule add` of a repository already there), read with
// one `git config --file .gitmodules` when that file exists; ok is false when
// git fails on it.
func inTreeSubmoduleConfigs(ctx context.Context, top string) (configs []string, ok bool) {
	gm := filepath.Join(top, ".gitmodules")
	if _, err := os.Lstat(gm); err != nil {
		return nil, true
	}
	args := append(GitSafeArgs(), "config", "--file", gm, "--null", "--get-regexp", `^submodule\..+\.path$`)
	out, ok := ownGitConfig(ctx, args)
	if !ok {
		return nil, false
	}
	for _, entry := range strings.Split(out, "\x00") {
		_, p, found := strings.Cut(entry, "\n")
		if !found || p == "" || filepath.IsAbs(p) || len(configs) >= maxSubmoduleConfigs {
			continue
		}
		dotgit := filepath.Join(top, filepath.FromSlash(p), ".git")
		if fi, err := os.Stat(dotgit); err == nil && fi.IsDir() {
			configs = append(configs, filepath.Join(dotgit, "config"))
			configs = append(configs, submoduleConfigs(dotgit)...)
		}
	}
	return configs, true
}

// Bounds of submoduleConfigs's search.
const (
	maxSubmoduleDepth   = 6
	maxSubmoduleConfigs = 64
)

// submoduleConfigs returns the config files of the submodules whose git
// directories live in the common git directory of gitDir (modules/NAME/, and
// their own modules/ in turn; a NAME may contain slashes), at most
// maxSubmoduleConfigs. A submodule whose .git is a directory of its own in the
// work tree is found by inTreeSubmoduleConfigs, when .gitmodules names it.
func submoduleConfigs(gitDir string) []string {
	common := gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(b))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		common = c
	}
	var out []string
	var walk func(d string, depth int)
	walk = func(d string, depth int) {
		if depth > maxSubmoduleDepth || len(out) >= maxSubmoduleConfigs {
			return
		}
		entries, err := os.ReadDir(d)
		if err != nil {
			return
		}
		for _, e := range entries {
			if !e.IsDir() || len(out) >= maxSubmoduleConfigs {
				continue
			}
			sub := filepath.Join(d, e.Name())
			if _, err := os.Stat(filepath.Join(sub, "HEAD")); err == nil {
				if _, err := os.Stat(filepath.Join(sub, "config")); err == nil {
					out = append(out, filepath.Join(sub, "config"))
				}
				walk(filepath.Join(sub, "modules"), depth+1)
				continue
			}
			walk(sub, depth+1) // a part of a name with slashes
		}
	}
	walk(filepath.Join(common, "modules"), 0)
	return out
}

// GitSafeEnvFor is GitSafeEnv with the overrides of GitHelperOverrides(ctx,
// dir) numbered after its own settings: the git part of the environment of a
// command run in dir.
func GitSafeEnvFor(ctx context.Context, dir string) []string {
	return gitSafeEnvWith(GitHelperOverrides(ctx, dir))
}

// helperOverrides turns the NUL-separated scope/key pairs of `git config
// --show-scope --name-only --null` into overrides, one per key (and one
// filter.D.required=false per filter driver), in the order listed.
func helperOverrides(listing string) [][2]string {
	var out [][2]string
	seen := map[string]bool{}
	add := func(k, v string) {
		if !seen[k] {
			seen[k] = true
			out = append(out, [2]string{k, v})
		}
	}
	fields := strings.Split(listing, "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		scope, key := fields[i], fields[i+1]
		if scope == "global" || scope == "system" {
			continue
		}
		section, rest, _ := strings.Cut(key, ".")
		sub, name := "", rest
		if j := strings.LastIndex(rest, "."); j >= 0 {
			sub, name = rest[:j], rest[j+1:]
		}
		switch {
		case section == "diff" && sub == "" && name == "external",
			section == "diff" && sub != "" && name == "command":
			add(key, gitExternalDiff())
		case section == "diff" && sub != "" && name == "textconv":
			add(key, gitCat())
		case section == "filter" && sub != "":
			add(key, "")
			add("filter."+sub+".required", "false")
		case section == "gpg" && name == "program":
			switch strings.ToLower(sub) {
			case "x509":
				add(key, "gpgsm")
			case "ssh":
				add(key, "ssh-keygen")
			default:
				add(key, "gpg")
			}
		case section == "core" && name == "sshcommand":
			add(key, "ssh")
		case section == "core" && name == "askpass":
			add(key, "")
		case section == "remote" && sub != "" && name == "uploadpack":
			add(key, "git-upload-pack")
		case section == "remote" && sub != "" && name == "receivepack":
			add(key, "git-receive-pack")
		}
	}
	return out
}

// findGitDir returns the git directory of the repository around dir, as
// git's own discovery would find it: the .git directory of dir or of a parent,
// the directory a .git file names ("gitdir: PATH", a linked worktree or a
// submodule), or dir (or a parent) itself when it is a git directory (a bare
// repository: HEAD, objects and refs). ok is false when there is none. It
// only looks at names; git decides the rest.
func findGitDir(dir string) (gitDir string, ok bool) {
	gitDir, _, ok = findRepo(dir)
	return gitDir, ok
}

// findRepo is findGitDir that also returns the top of the work tree: the
// directory the .git was found in ("" for a bare repository).
func findRepo(dir string) (gitDir, top string, ok bool) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", "", true // let git decide
	}
	for {
		dotgit := filepath.Join(dir, ".git")
		if fi, err := os.Stat(dotgit); err == nil {
			if fi.IsDir() {
				return dotgit, dir, true
			}
			if b, err := os.ReadFile(dotgit); err == nil {
				if p, found := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:"); found {
					p = strings.TrimSpace(p)
					if !filepath.IsAbs(p) {
						p = filepath.Join(dir, p)
					}
					return p, dir, true
				}
			}
			return dotgit, dir, true
		} else if _, err := os.Lstat(dotgit); err == nil {
			return dotgit, dir, true // a dangling symlink: git decides
		}
		if _, err := os.Lstat(filepath.Join(dir, "HEAD")); err == nil {
			if gitStatDir(filepath.Join(dir, "objects")) && gitStatDir(filepath.Join(dir, "refs")) {
				return dir, "", true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "", false
		}
		dir = parent
	}
}

func gitStatDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

var (
	gitToolsOnce sync.Once
	gitCatPath   = "cat"
	gitDiffPath  = "diff"
)

// systemTool returns the absolute path of name in /usr/bin or /bin, or name
// (looked up in PATH when git runs it) when it is in neither: a program named
// by a directory the workspace may put on PATH is not what runs when the
// system has one.
func systemTool(name string) string {
	for _, d := range []string{"/usr/bin", "/bin"} {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return name
}

func gitTools() {
	gitToolsOnce.Do(func() {
		gitCatPath = systemTool("cat")
		gitDiffPath = systemTool("diff")
	})
}

// gitCat is the textconv override: cat, which git runs as `cat FILE`.
func gitCat() string {
	gitTools()
	return shellQuoteWord(gitCatPath)
}

// gitExternalDiff is the diff.external and diff.D.command override. git runs
// it through sh with "$@" appended and, for a changed path, 7 arguments (path
// old-file old-hex old-mode new-file new-hex new-mode; 9 for a rename: new
// path and a message too; an absent side is /dev/null with hex and mode "."),
// or 1 (path) for an unmerged path. It prints a header and a unified diff
// labelled a/PATH and b/PATH, and returns 0 whatever diff says (binary
// files, exit 2): git stops the whole diff at a non-zero status.
func gitExternalDiff() string {
	gitTools()
	return `f() { if [ $# -lt 7 ]; then printf '* Unmerged path %s\n' "$1"; return 0; fi; ` +
		`o="a/$1"; n="b/${8:-$1}"; [ "$3" = . ] && o=/dev/null; [ "$6" = . ] && n=/dev/null; ` +
		`printf 'diff --git a/%s b/%s\n' "$1" "${8:-$1}"; ` +
		shellQuoteWord(gitDiffPath) + ` -u -L "$o" -L "$n" -- "$2" "$5"; return 0; }; f`
}

// shellQuoteWord quotes s for sh when it holds anything but safe characters.
func shellQuoteWord(s string) string {
	for _, r := range s {
		if !(r == '/' || r == '.' || r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}
