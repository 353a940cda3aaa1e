package hook

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Project hooks and trust. The project's own files (.pincer/config.toml,
// .claude/settings.json, .claude/settings.local.json: Source.Project) come with
// the repository, which pincer does not trust (docs/SECURITY.md): their hooks
// run outside the sandbox, so they run only once the user has trusted them. The
// files are read and validated either way (a broken one still fails closed);
// WithoutProject drops their hooks from a Runner, and ProjectDigest names the
// contents the user trusts.

// WithoutProject returns a Runner with the same settings and only the hooks that
// do not come from a project file, and the Source (file path) of each hook it
// dropped, in event order then definition order. r itself is unchanged.
func (r *Runner) WithoutProject() (*Runner, []string) {
	if r == nil {
		return nil, nil
	}
	out := &Runner{projectDir: r.projectDir, defs: map[Event][]compiled{}, shell: r.shell, killGrace: r.killGrace}
	var dropped []string
	for _, ev := range Events {
		for _, c := range r.defs[ev] {
			if c.Project {
				dropped = append(dropped, c.Source)
				continue
			}
			out.defs[ev] = append(out.defs[ev], c)
		}
	}
	return out, dropped
}

// ProjectDefs returns the hooks that come from project files, for display.
func (r *Runner) ProjectDefs() map[Event][]Def {
	out := map[Event][]Def{}
	for ev, list := range r.Defs() {
		for _, d := range list {
			if d.Project {
				out[ev] = append(out[ev], d)
			}
		}
	}
	return out
}

// ProjectDigest returns the hex SHA-256 of the contents of the project files
// among srcs (in order; an absent file counts as absent, so creating one changes
// the digest), the value a trust record holds.
func ProjectDigest(srcs []Source) (string, error) {
	h := sha256.New()
	for _, src := range srcs {
		if !src.Project {
			continue
		}
		data, err := os.ReadFile(src.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			fmt.Fprintf(h, "%s\x00absent\x00", src.Path)
		case err != nil:
			return "", err
		default:
			fmt.Fprintf(h, "%s\x00%d\x00", src.Path, len(data))
			h.Write(data)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
