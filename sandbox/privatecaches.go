package sandbox

import (
	"path/filepath"
	"strings"
)

// packageCacheEnv are the variables that place a package manager's cache,
// each with its directory under a private cache dir (PrivateCacheEnv).
var packageCacheEnv = [][2]string{
	{"npm_config_cache", "npm"}, // npm and npx (default ~/.npm)
	{"UV_CACHE_DIR", "uv"},      // uv and uvx (default ~/.cache/uv)
	{"PIP_CACHE_DIR", "pip"},
	{"GOMODCACHE", "gomod"}, // go run MODULE@VERSION
	{"GOCACHE", "gobuild"},
	{"XDG_CACHE_HOME", "xdg"}, // what else keeps its cache under ~/.cache
}

// PrivateCacheEnv returns KEY=VALUE entries placing the caches of npm and
// npx, uv and uvx, pip, Go and the XDG cache dir under dir, for the programs
// pincer starts outside the sandbox (MCP stdio servers, hooks): the person's
// ~/.npm and ~/.cache are writable by sandboxed commands (toolchain caches),
// and a package runner started outside runs a cached package as it finds it
// (red team r24b F2: a command edited the cached npx install of the person's
// MCP server; r24c F2: of a hook's `npx -y`). A key that keep reports as
// set (compared ignoring case: npm reads NPM_CONFIG_CACHE too) is left out,
// so that an entry's own setting wins. nil when dir is "".
func PrivateCacheEnv(dir string, keep func(key string) bool) []string {
	if dir == "" {
		return nil
	}
	var out []string
	for _, c := range packageCacheEnv {
		if keep != nil && keep(c[0]) {
			continue
		}
		out = append(out, c[0]+"="+filepath.Join(dir, c[1]))
	}
	return out
}

// SetIn returns the keep function of PrivateCacheEnv for the variables env
// (an entry's map) sets.
func SetIn(env map[string]string) func(string) bool {
	return func(key string) bool {
		for k := range env {
			if strings.EqualFold(k, key) {
				return true
			}
		}
		return false
	}
}
