package sandbox

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Layer is the [sandbox] table of one config file, as core/config reads it:
//
//	[sandbox]
//	enabled = true            # false: no Landlock, namespaces or limits (env allowlist stays)
//	network = true            # let commands reach the network (default: cut)
//	writable_roots = ["~/scratch"]
//	env_allow = ["AWS_PROFILE", "MY_*"]
//	require_landlock = true   # refuse to run commands where Landlock is unavailable
//
// A nil field (an absent key) leaves the policy as it is.
type Layer struct {
	Path                              string
	Project                           bool // the workspace's own file: it may only tighten (see PolicyFrom)
	Enabled, Network, RequireLandlock *bool
	WritableRoots, EnvAllow           []string
	// Lines are the 1-based lines of the keys set, by key, for messages.
	Lines map[string]int
}

// PolicyFrom applies layers, in order, to p (DefaultPolicy, say) and returns the
// policy and one warning per setting it ignored. A user layer (trusted) may set
// anything; "~/" at the start of a writable root is home. A project layer
// (written by whoever wrote the repository, or by a model) may only tighten:
// enabled = true, network = false, require_landlock = true; a key that would
// loosen the sandbox there (enabled = false, network = true, writable_roots,
// env_allow) is ignored with a warning naming FILE:LINE. Flags (--no-sandbox,
// --allow-network) are the caller's to apply after.
func PolicyFrom(p Policy, home string, layers []Layer) (Policy, []string) {
	var warnings []string
	for _, l := range layers {
		if l.Project {
			warnings = append(warnings, tightenOnly(l, &p)...)
			continue
		}
		if l.Enabled != nil {
			p.Enabled = *l.Enabled
		}
		if l.Network != nil {
			p.Network = *l.Network
		}
		if l.RequireLandlock != nil {
			p.RequireLandlock = *l.RequireLandlock
		}
		for _, r := range l.WritableRoots {
			if strings.HasPrefix(r, "~/") && home != "" {
				r = filepath.Join(home, r[2:])
			}
			p.WritableRoots = append(p.WritableRoots, r)
		}
		p.EnvAllow = append(p.EnvAllow, l.EnvAllow...)
	}
	return p, warnings
}

// tightenOnly applies a project layer to p where it tightens it, and returns one
// warning (FILE:LINE: ...) per setting ignored because it would loosen it.
func tightenOnly(l Layer, p *Policy) []string {
	var out []string
	ignore := func(key, why string) {
		loc := l.Path
		if n := l.Lines[key]; n > 0 {
			loc = fmt.Sprintf("%s:%d", l.Path, n)
		}
		out = append(out, fmt.Sprintf("%s: [sandbox] %s ignored: %s; only your own config.toml or a flag can loosen the sandbox", loc, key, why))
	}
	if l.Enabled != nil {
		if *l.Enabled {
			p.Enabled = true
		} else {
			ignore("enabled", "a project cannot turn the sandbox off")
		}
	}
	if l.Network != nil {
		if *l.Network {
			ignore("network", "a project cannot turn the network on (use --allow-network)")
		} else {
			p.Network = false
		}
	}
	if l.RequireLandlock != nil {
		if *l.RequireLandlock {
			p.RequireLandlock = true
		} else {
			ignore("require_landlock", "a project cannot relax it")
		}
	}
	if len(l.WritableRoots) > 0 {
		ignore("writable_roots", "a project cannot widen where commands write")
	}
	if len(l.EnvAllow) > 0 {
		ignore("env_allow", "a project cannot pass pincer's environment (API keys) to commands")
	}
	return out
}
