package plugin

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// marketplaceRef is Claude Code's PLUGIN@MARKETPLACE (`/plugin install
// my-plugin@claude-plugins-official`): no '/', no ':', one '@'.
var marketplaceRef = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*@[A-Za-z0-9][A-Za-z0-9._-]*$`)

// errMarketplace is the answer to a marketplace reference: not supported yet,
// and how to install the same plugin from a path or a git URL.
func errMarketplace(ref string) error {
	name, market, _ := strings.Cut(ref, "@")
	return fmt.Errorf("%s: plugin marketplaces are not supported yet; install the plugin from a directory "+
		"(pincer plugin install ./%s) or a git URL (pincer plugin install https://github.com/OWNER/REPO.git); "+
		"for a plugin of the %s marketplace, clone the marketplace's repository and install the plugin's directory in it",
		ref, name, market)
}

// stageName is the name of the directory a plugin from source is staged in,
// so that a plugin without a manifest is named as Claude Code names it: the
// directory's base name, or a git URL's last path element without ".git".
// It is never empty, "." or "..": "plugin" then (Load refuses no name).
func stageName(source string) string {
	name := filepath.Base(filepath.Clean(source))
	if LooksLikeGit(source) {
		s := strings.TrimRight(source, "/")
		if i := strings.LastIndexAny(s, "/:"); i >= 0 {
			s = s[i+1:]
		}
		name = strings.TrimSuffix(s, ".git")
	}
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return "plugin"
	}
	return name
}

// stagedErr names the staged copy's files by the source they were copied
// from: the path (or URL) the person gave, never the temporary directory.
func stagedErr(err error, stage, source string) error {
	olds := []string{stage}
	if real, rerr := filepath.EvalSymlinks(stage); rerr == nil && real != stage {
		olds = append(olds, real)
		if len(real) > len(stage) { // the longer first: /private/tmp/x holds /tmp/x
			olds[0], olds[1] = real, stage
		}
	}
	if !LooksLikeGit(source) {
		source = filepath.Clean(source)
	}
	return &renamedErr{err: err, olds: olds, new: strings.TrimRight(source, "/")}
}

// renamedErr is err with every path in olds written as new.
type renamedErr struct {
	err  error
	olds []string
	new  string
}

func (e *renamedErr) Error() string {
	s := e.err.Error()
	for _, o := range e.olds {
		s = strings.ReplaceAll(s, o, e.new)
	}
	return s
}

func (e *renamedErr) Unwrap() error { return e.err }
