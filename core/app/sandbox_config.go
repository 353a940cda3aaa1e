package app

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"pincer/sandbox"
)

// sandboxSettings is the [sandbox] table of pincer's config files:
//
//	[sandbox]
//	enabled = true            # false: no Landlock, namespaces or limits (env allowlist stays)
//	network = true            # let commands reach the network (default: cut)
//	writable_roots = ["~/scratch"]
//	env_allow = ["AWS_PROFILE", "MY_*"]
//	require_landlock = true   # refuse to run commands where Landlock is unavailable
//
// The user file is read first, then the project's .pincer/config.toml. The
// user's file (trusted) may set anything. The project's file (written by
// whoever wrote the repository, or by a model) may only tighten: enabled =
// true, network = false, require_landlock = true; a key that would loosen the
// sandbox there (enabled = false, network = true, writable_roots, env_allow)
// is ignored with a warning naming FILE:LINE.
type sandboxSettings struct {
	Enabled         *bool    `toml:"enabled"`
	Network         *bool    `toml:"network"`
	WritableRoots   []string `toml:"writable_roots"`
	EnvAllow        []string `toml:"env_allow"`
	RequireLandlock *bool    `toml:"require_landlock"`
}

// sandboxFlags are the command-line switches that change the sandbox policy:
// --no-sandbox and --allow-network. Like the user's config, flags may loosen.
type sandboxFlags struct {
	NoSandbox    bool
	AllowNetwork bool
}

// LoadSandboxPolicy builds the Bash tool's sandbox policy from the defaults, the
// config files and --no-sandbox (see sandboxPolicyFor). nil means no OS sandbox.
func LoadSandboxPolicy(workspace string, noSandbox bool, stderr io.Writer) *sandbox.Policy {
	return sandboxPolicyFor(workspace, sandboxFlags{NoSandbox: noSandbox}, stderr)
}

// sandboxPolicyFor builds the Bash tool's sandbox policy from
// sandbox.DefaultPolicy (network off), the user's config, the project's config
// (tightening only), then the flags: --allow-network turns the network on,
// --no-sandbox turns the OS sandbox off. Warnings (a table that cannot be
// applied, a project key that would loosen the sandbox) go to stderr, one line
// each. nil means no OS sandbox.
func sandboxPolicyFor(workspace string, flags sandboxFlags, stderr io.Writer) *sandbox.Policy {
	p := sandbox.DefaultPolicy()
	home, _ := os.UserHomeDir()
	type file struct {
		Sandbox sandboxSettings `toml:"sandbox"`
	}
	project := filepath.Join(workspace, ".pincer", "config.toml")
	var ignored []string
	warns := ConfigTables(workspace, "sandbox", func(path string, f file) {
		s := f.Sandbox
		if path == project {
			ignored = append(ignored, tightenOnly(path, s, &p)...)
			return
		}
		if s.Enabled != nil {
			p.Enabled = *s.Enabled
		}
		if s.Network != nil {
			p.Network = *s.Network
		}
		if s.RequireLandlock != nil {
			p.RequireLandlock = *s.RequireLandlock
		}
		for _, r := range s.WritableRoots {
			if len(r) > 1 && r[:2] == "~/" && home != "" {
				r = filepath.Join(home, r[2:])
			}
			p.WritableRoots = append(p.WritableRoots, r)
		}
		p.EnvAllow = append(p.EnvAllow, s.EnvAllow...)
	})
	for _, w := range append(warns, ignored...) {
		fmt.Fprintf(stderr, "pincer: warning: %s\n", w)
	}
	if flags.AllowNetwork {
		p.Network = true
	}
	if flags.NoSandbox || !p.Enabled {
		return nil
	}
	return &p
}

// tightenOnly applies the project file's [sandbox] settings s to p where they
// tighten it, and returns one warning (FILE:LINE: ...) per setting ignored
// because it would loosen it.
func tightenOnly(path string, s sandboxSettings, p *sandbox.Policy) []string {
	var out []string
	ignore := func(key, why string) {
		loc := path
		if n := tableKeyLine(path, "sandbox", key); n > 0 {
			loc = fmt.Sprintf("%s:%d", path, n)
		}
		out = append(out, fmt.Sprintf("%s: [sandbox] %s ignored: %s; only your own config.toml or a flag can loosen the sandbox", loc, key, why))
	}
	if s.Enabled != nil {
		if *s.Enabled {
			p.Enabled = true
		} else {
			ignore("enabled", "a project cannot turn the sandbox off")
		}
	}
	if s.Network != nil {
		if *s.Network {
			ignore("network", "a project cannot turn the network on (use --allow-network)")
		} else {
			p.Network = false
		}
	}
	if s.RequireLandlock != nil {
		if *s.RequireLandlock {
			p.RequireLandlock = true
		} else {
			ignore("require_landlock", "a project cannot relax it")
		}
	}
	if len(s.WritableRoots) > 0 {
		ignore("writable_roots", "a project cannot widen where commands write")
	}
	if len(s.EnvAllow) > 0 {
		ignore("env_allow", "a project cannot pass pincer's environment (API keys) to commands")
	}
	return out
}

// tableKeyLine returns the 1-based line of key in table of the TOML file at
// path — `key = ...` inside `[table]`, or `table.key = ...` at the top — or 0
// when it is not found that way (an inline table, say).
func tableKeyLine(path, table, key string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	keyRE := regexp.MustCompile(`^\s*"?` + regexp.QuoteMeta(key) + `"?\s*=`)
	dottedRE := regexp.MustCompile(`^\s*"?` + regexp.QuoteMeta(table) + `"?\s*\.\s*"?` + regexp.QuoteMeta(key) + `"?\s*=`)
	headRE := regexp.MustCompile(`^\s*\[\s*([^\]]*?)\s*\]`)
	in := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if m := headRE.FindStringSubmatch(line); m != nil && !strings.HasPrefix(strings.TrimSpace(line), "[[") {
			in = strings.Trim(m[1], `"`) == table
			continue
		}
		if (in && keyRE.MatchString(line)) || (!in && dottedRE.MatchString(line)) {
			return n
		}
	}
	return 0
}

// oneLineErr flattens an error (a TOML decode error spans lines) to one line, with
// the position go-toml reports.
func oneLineErr(err error) string {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return fmt.Sprintf("line %d, column %d: %s", row, col, de.Error())
	}
	return err.Error()
}
