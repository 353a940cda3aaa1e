package plugin

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkEnabled is what every run pays at start for its plugins: reading
// the state file and loading each enabled plugin (manifest, hooks, .mcp.json,
// .lsp.json, agents), here 5 plugins of one of each component.
func BenchmarkEnabled(b *testing.B) {
	home := b.TempDir()
	paths := testPathsAt(home)
	for i := range 5 {
		src := filepath.Join(b.TempDir(), "src")
		files := map[string]string{
			"plugin.json":       fmt.Sprintf(`{"name": "p%d", "version": "1.0.0"}`, i),
			"skills/s/SKILL.md": "---\nname: s\ndescription: d\n---\nbody\n",
			"commands/c.md":     "do $ARGUMENTS\n",
			"agents/a.md":       "---\nname: a\ndescription: d\n---\nYou.\n",
			"hooks/hooks.json":  hooksJSON,
			".mcp.json":         `{"mcpServers": {"db": {"command": "${CLAUDE_PLUGIN_ROOT}/db"}}}`,
			".lsp.json":         `{"go": {"command": "gopls"}}`,
		}
		writeTreeB(b, src, files)
		if _, err := Install(context.Background(), paths, src, ScopeUser, ""); err != nil {
			b.Fatal(err)
		}
	}
	ws := b.TempDir()
	b.ResetTimer()
	for b.Loop() {
		ps, err := Enabled(paths, ws)
		if err != nil || len(ps) != 5 {
			b.Fatal(err, len(ps))
		}
	}
}
