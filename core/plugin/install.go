package plugin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"pincer/core/config"
	"pincer/sandbox"
)

// gitProtocols allow only the transports CheckGitURL accepts, whatever the
// user's git configuration says (ext:: above all); GitSafeArgs adds the rest
// (no hooks, no credential helper, no fsmonitor, no submodules).
var gitProtocols = []string{
	"-c", "protocol.allow=never",
	"-c", "protocol.https.allow=always", "-c", "protocol.http.allow=always",
	"-c", "protocol.ssh.allow=always", "-c", "protocol.git.allow=always",
	"-c", "protocol.file.allow=always",
}

// Install installs the plugin at source — a local directory (copied) or a git
// URL (cloned shallow with real git, its repository helpers disabled) — into
// Dir as Dir/NAME, NAME from its manifest (else the directory's or the
// repository's name, as Claude Code), records where it came from and
// enables it for scope (ScopeProject: for workspace). A plugin that does not
// load (Plugin.Errors), a name already installed, a symbolic link in the
// plugin leading out of it, a file that is neither a regular file, a
// directory nor such a link, a refused git URL (CheckGitURL) and a marketplace
// reference (PLUGIN@MARKETPLACE, not supported yet) are errors; nothing is
// left behind then. The errors name the plugin's files under source, never
// the temporary copy.
func Install(ctx context.Context, paths config.Paths, source string, scope Scope, workspace string) (*Plugin, error) {
	dir, err := Dir(paths)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(dir, ".install-") // a leading '.': never a plugin name, never listed
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	// The staged copy bears the source's name: a plugin without a manifest is
	// named after its directory (or its repository).
	stage := filepath.Join(tmp, stageName(source))
	from, git := source, false
	if st, serr := os.Stat(source); serr == nil && st.IsDir() {
		if from, err = filepath.Abs(source); err != nil {
			return nil, err
		}
		if err := copyTree(from, stage); err != nil {
			return nil, err
		}
	} else if LooksLikeGit(source) {
		if err := CheckGitURL(source); err != nil {
			return nil, err
		}
		git = true
		if err := clone(ctx, source, stage); err != nil {
			return nil, err
		}
		if err := checkTree(stage); err != nil {
			return nil, err
		}
	} else if serr != nil && marketplaceRef.MatchString(source) {
		return nil, errMarketplace(source)
	} else if serr != nil {
		return nil, fmt.Errorf("%s: %w (a plugin is installed from a directory or a git URL)", source, serr)
	} else {
		return nil, fmt.Errorf("%s: not a directory (a plugin is installed from a directory or a git URL)", source)
	}
	p := Load(stage)
	if len(p.Errors) > 0 {
		return p, fmt.Errorf("%s does not load as a plugin: %w", source, stagedErr(errors.Join(p.Errors...), stage, source))
	}
	dest := filepath.Join(dir, p.Name)
	if _, err := os.Lstat(dest); err == nil {
		return p, fmt.Errorf("plugin %s is already installed (pincer plugin remove %s first)", p.Name, p.Name)
	}
	if err := os.Rename(stage, dest); err != nil {
		return p, err
	}
	if err := editState(paths, func(s *State) error {
		s.Installed[p.Name] = Source{From: from, Git: git, InstalledAt: time.Now().UTC().Truncate(time.Second)}
		setEnabled(s, p.Name, scope, workspace, true)
		return nil
	}); err != nil {
		os.RemoveAll(dest)
		return p, err
	}
	return Load(dest), nil
}

// clone runs `git clone --depth 1` of url into dest: pincer's own git, without
// secrets in its environment (sandbox.OwnGitEnv), no repository helper
// (sandbox.GitSafeArgs), only the allowed protocols, no submodules, no
// terminal prompt. "--" ends the options, though CheckGitURL already refused a
// URL starting with '-'.
func clone(ctx context.Context, url, dest string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	args := append(append(sandbox.GitSafeArgs(), gitProtocols...),
		"clone", "--depth", "1", "--no-recurse-submodules", "--quiet", "--", url, dest)
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Env = sandbox.OwnGitEnv(os.Environ())
	cmd.Stdin = nil
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(out.String())
		if msg == "" {
			msg = err.Error()
		}
		return fmt.Errorf("git clone %s: %s", url, msg)
	}
	return nil
}

// copyTree copies the plugin directory src to dst (which must not exist):
// directories and regular files (permissions kept, at most 0755), and
// symbolic links whose target is relative and stays inside src. Its .git is
// left out. Any other link or file is an error.
func copyTree(src, dst string) error {
	realSrc, err := filepath.EvalSymlinks(src)
	if err != nil {
		return err
	}
	return filepath.WalkDir(realSrc, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(realSrc, path)
		if rel == ".git" && e.IsDir() {
			return filepath.SkipDir
		}
		to := filepath.Join(dst, rel)
		switch t := e.Type(); {
		case t.IsDir():
			return os.MkdirAll(to, 0o755)
		case t&fs.ModeSymlink != 0:
			target, err := linkInside(realSrc, path)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case t.IsRegular():
			return copyFile(path, to)
		default:
			return fmt.Errorf("%s: not a regular file, directory or link (%s): not copied into a plugin", path, t)
		}
	})
}

// checkTree refuses a cloned tree holding a link out of it or a special file.
func checkTree(root string) error {
	return filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch t := e.Type(); {
		case t.IsDir(), t.IsRegular():
			return nil
		case t&fs.ModeSymlink != 0:
			_, err := linkInside(root, path)
			return err
		default:
			return fmt.Errorf("%s: not a regular file, directory or link (%s)", path, t)
		}
	})
}

// linkInside returns the target of the link at path when it is relative and
// resolves inside root (itself free of links).
func linkInside(root, path string) (string, error) {
	target, err := os.Readlink(path)
	if err != nil {
		return "", err
	}
	rel, _ := filepath.Rel(root, path)
	if filepath.IsAbs(target) {
		return "", fmt.Errorf("%s: a symbolic link to %s (absolute): a plugin's links stay inside it", rel, target)
	}
	if !inside(filepath.Join(filepath.Dir(path), target), root) {
		return "", fmt.Errorf("%s: a symbolic link to %s, outside the plugin", rel, target)
	}
	if real, err := filepath.EvalSymlinks(path); err == nil && !inside(real, root) {
		return "", fmt.Errorf("%s: a symbolic link to %s, outside the plugin", rel, real)
	}
	return target, nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, st.Mode().Perm()&0o755|0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// installedDir is Dir/name when it is a plugin pincer installed: a real
// directory (a symbolic link put there is refused: pincer loads only what it
// copied).
func installedDir(dir, name string) (string, error) {
	p := filepath.Join(dir, name)
	st, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("plugin %s is not installed", name)
	}
	if err != nil {
		return "", err
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return p, fmt.Errorf("%s is a symbolic link: pincer loads only the plugin directories it installed", p)
	}
	if !st.IsDir() {
		return p, fmt.Errorf("%s is not a directory", p)
	}
	return p, nil
}

// Remove deletes an installed plugin and every record of it.
func Remove(paths config.Paths, name string) error {
	if err := ValidName(name); err != nil {
		return err
	}
	dir, err := Dir(paths)
	if err != nil {
		return err
	}
	p, err := installedDir(dir, name)
	if p == "" {
		return err
	}
	if err == nil {
		err = os.RemoveAll(p)
	} else {
		err = os.Remove(p) // a link or file put there: removed, never followed
	}
	if err != nil {
		return err
	}
	return editState(paths, func(s *State) error {
		delete(s.Installed, name)
		delete(s.User, name)
		for _, proj := range s.Projects {
			delete(proj, name)
		}
		return nil
	})
}
