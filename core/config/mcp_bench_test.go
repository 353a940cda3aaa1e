package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkMCPServers: the start-up cost of MCP configuration — reading a
// workspace's sources with a .mcp.json of 20 servers (${VAR} in each) and 5
// [mcp.servers.NAME] in the user's config.toml, then MCPServers (expansion,
// fingerprints, precedence).
func BenchmarkMCPServers(b *testing.B) {
	home, ws := b.TempDir(), b.TempDir()
	var j []string
	for i := 0; i < 20; i++ {
		j = append(j, fmt.Sprintf(`"s%d": {"command": "npx", "args": ["-y", "@scope/server-%d", "${HOME}/data"], "env": {"TOKEN": "${TOKEN:-none}"}}`, i, i))
	}
	if err := os.WriteFile(filepath.Join(ws, ".mcp.json"), []byte(`{"mcpServers": {`+strings.Join(j, ",\n")+`}}`), 0o644); err != nil {
		b.Fatal(err)
	}
	var t strings.Builder
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&t, "[mcp.servers.u%d]\ntype = \"http\"\nurl = \"https://mcp.example/%d\"\nheaders = { Authorization = \"Bearer ${TOKEN:-x}\" }\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(t.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	env := map[string]string{"PINCER_HOME": home, "HOME": b.TempDir()}
	paths := PathsFrom(func(k string) string { return env[k] })
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	b.Run("read+servers", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			s, errs := Read(paths, ws).MCPServers(lookup)
			if len(s) != 25 || len(errs) != 0 {
				b.Fatal(len(s), errs)
			}
		}
	})
	src := Read(paths, ws)
	b.Run("servers", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if s, _ := src.MCPServers(lookup); len(s) != 25 {
				b.Fatal(len(s))
			}
		}
	})
}
