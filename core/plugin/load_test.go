package plugin

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"pincer/core/mcp"
)

// writeTree writes files (path -> content) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// writeTreeB is writeTree for a benchmark.
func writeTreeB(b *testing.B, dir string, files map[string]string) {
	b.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// errText joins a plugin's errors.
func errText(p *Plugin) string {
	var s []string
	for _, e := range p.Errors {
		s = append(s, e.Error())
	}
	return strings.Join(s, "\n")
}

const hooksJSON = `{"hooks": {"PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/fmt.sh"}]}]}}`

func TestLoad(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		err   string // a regexp the errors match ("" none)
		check func(t *testing.T, p *Plugin)
	}{
		{
			name: "claude layout, defaults",
			files: map[string]string{
				".claude-plugin/plugin.json": `{"name": "fmt", "version": "1.2.0", "description": "formats", "author": {"name": "A", "email": "a@x"}}`,
				"skills/tidy/SKILL.md":       "---\nname: tidy\ndescription: tidies\n---\nbody\n",
				"commands/go.md":             "go!\n",
				"agents/reviewer.md":         "---\nname: reviewer\ndescription: reviews code\n---\nYou review.\n",
				"hooks/hooks.json":           hooksJSON,
				".mcp.json":                  `{"mcpServers": {"db": {"command": "${CLAUDE_PLUGIN_ROOT}/db", "args": ["--root", "${PINCER_PLUGIN_ROOT}"], "env": {"X": "1"}}}}`,
				".lsp.json":                  `{"go": {"command": "gopls", "args": ["serve"], "extensionToLanguage": {".go": "go"}}}`,
			},
			check: func(t *testing.T, p *Plugin) {
				if p.Name != "fmt" || p.Manifest.Version != "1.2.0" || p.Manifest.Author.Email != "a@x" {
					t.Errorf("manifest: %+v", p.Manifest)
				}
				if len(p.SkillDirs) != 1 || filepath.Base(p.SkillDirs[0]) != "skills" {
					t.Errorf("skills: %v", p.SkillDirs)
				}
				if len(p.CommandPaths) != 1 || filepath.Base(p.CommandPaths[0]) != "commands" {
					t.Errorf("commands: %v", p.CommandPaths)
				}
				if len(p.Agents) != 1 || p.Agents[0].Name != "fmt:reviewer" || p.Agents[0].Description != "reviews code" {
					t.Errorf("agents: %+v", p.Agents)
				}
				if len(p.Hooks) != 1 || len(p.Hooks[0].Hooks) != 1 || p.Hooks[0].Hooks[0].Command != p.Root+"/fmt.sh" || p.Hooks[0].Project {
					t.Errorf("hooks: %+v", p.Hooks)
				}
				if len(p.MCPServers) != 1 {
					t.Fatalf("mcp: %+v", p.MCPServers)
				}
				s := p.MCPServers[0]
				if s.Name != "plugin_fmt_db" || s.Scope != mcp.ScopePlugin || s.Plugin != "fmt" || !s.Approved ||
					s.Command != p.Root+"/db" || s.Args[1] != p.Root || s.Transport != mcp.TransportStdio || s.Env["X"] != "1" {
					t.Errorf("mcp: %+v", s)
				}
				if len(p.LSPServers) != 1 || p.LSPServers[0].Command != "gopls" || p.LSPServers[0].Extensions[".go"] != "go" {
					t.Errorf("lsp: %+v", p.LSPServers)
				}
				if p.Origin() != "plugin:fmt" {
					t.Errorf("origin %q", p.Origin())
				}
			},
		},
		{
			name: "root plugin.json, overrides add to defaults, inline hooks mcp lsp",
			files: map[string]string{
				"plugin.json": `{
  "name": "kit",
  "commands": ["./extra/one.md", "./more"],
  "skills": "./sk",
  "agents": ["./people/a.md"],
  "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/guard"}]}]},
  "mcpServers": {"web": {"type": "http", "url": "http://127.0.0.1:1/mcp", "headers": {"A": "${CLAUDE_PLUGIN_ROOT}"}}},
  "lspServers": {"py": {"command": "pyright"}}
}`,
				"commands/base.md": "x",
				"extra/one.md":     "x",
				"more/two.md":      "x",
				"sk/s1/SKILL.md":   "---\nname: s1\ndescription: d\n---\n",
				"people/a.md":      "plain agent, no frontmatter\n",
				"hooks/hooks.json": hooksJSON,
			},
			check: func(t *testing.T, p *Plugin) {
				if len(p.CommandPaths) != 3 {
					t.Errorf("commands: %v", p.CommandPaths)
				}
				if len(p.SkillDirs) != 1 || filepath.Base(p.SkillDirs[0]) != "sk" {
					t.Errorf("skills: %v", p.SkillDirs)
				}
				if len(p.Agents) != 1 || p.Agents[0].Name != "kit:a" {
					t.Errorf("agents: %+v", p.Agents)
				}
				if len(p.Hooks) != 2 || p.Hooks[1].Hooks[0].Event != "PreToolUse" || p.Hooks[1].Hooks[0].Command != p.Root+"/guard" {
					t.Errorf("hooks: %+v", p.Hooks)
				}
				if len(p.MCPServers) != 1 || p.MCPServers[0].Name != "plugin_kit_web" || p.MCPServers[0].Transport != mcp.TransportHTTP || p.MCPServers[0].Headers["A"] != p.Root {
					t.Errorf("mcp: %+v", p.MCPServers)
				}
				if len(p.LSPServers) != 1 || p.LSPServers[0].Name != "py" {
					t.Errorf("lsp: %+v", p.LSPServers)
				}
			},
		},
		{
			name:  "bad JSON names FILE:LINE",
			files: map[string]string{".claude-plugin/plugin.json": "{\n  \"name\": \"x\",\n  \"version\": 1.0.0\n}"},
			err:   `plugin\.json:3:`,
		},
		{
			name:  "duplicate key",
			files: map[string]string{"plugin.json": "{\n\"name\": \"x\",\n\"name\": \"y\"\n}"},
			err:   `plugin\.json:3:.*duplicate key`,
		},
		{name: "no name", files: map[string]string{"plugin.json": `{"version": "1"}`}, err: `plugin\.json:1: the manifest has no "name"`},
		{name: "bad name dots", files: map[string]string{"plugin.json": "{\n\"name\": \"../up\"}"}, err: `plugin\.json:2:.*not a plugin name`},
		{name: "bad name slash", files: map[string]string{"plugin.json": `{"name": "a/b"}`}, err: `not a plugin name`},
		{name: "bad name __", files: map[string]string{"plugin.json": `{"name": "a__b"}`}, err: `no "__"`},
		{name: "name not a string", files: map[string]string{"plugin.json": `{"name": 3}`}, err: `name must be a string`},
		{name: "two manifests", files: map[string]string{"plugin.json": `{"name":"a"}`, ".claude-plugin/plugin.json": `{"name":"a"}`}, err: `two plugin manifests`},
		{
			name:  "commands path escaping",
			files: map[string]string{"plugin.json": "{\"name\": \"a\",\n\"commands\": \"../outside\"}"},
			err:   `plugin\.json:2:.*leads out of the plugin`,
		},
		{
			name:  "absolute path",
			files: map[string]string{"plugin.json": "{\"name\": \"a\",\n\"skills\": [\"./ok\", \"/etc\"]}", "ok/x/SKILL.md": "x"},
			err:   `plugin\.json:2:.*skills\[1\].*absolute`,
		},
		{
			name:  "hooks file outside its root",
			files: map[string]string{"plugin.json": "{\"name\": \"a\",\n\n\"hooks\": \"./../../hooks.json\"}"},
			err:   `plugin\.json:3:.*hooks.*leads out`,
		},
		{name: "missing path", files: map[string]string{"plugin.json": `{"name": "a", "agents": "./nope"}`}, err: `"./nope" does not exist`},
		{name: "bad hooks file", files: map[string]string{"plugin.json": `{"name": "a"}`, "hooks/hooks.json": "{\n\"hooks\": {\"PreToolUse\": 5}}"}, err: `hooks\.json:2:`},
		{name: "hooks file without hooks", files: map[string]string{"plugin.json": `{"name": "a"}`, "hooks/hooks.json": `{"PreToolUse": []}`}, err: `hooks\.json:1: a hooks file holds a "hooks" object`},
		{name: "bad mcp entry", files: map[string]string{"plugin.json": `{"name": "a"}`, ".mcp.json": "{\"mcpServers\": {\n\"s\": {\"args\": []}}}"}, err: `\.mcp\.json:2:.*needs a command`},
		{name: "bad mcp type", files: map[string]string{"plugin.json": `{"name": "a"}`, ".mcp.json": "{\"mcpServers\": {\"s\": {\n\"type\": \"ws\", \"url\": \"x\"}}}"}, err: `\.mcp\.json:2:.*is not one of stdio`},
		{name: "bad mcp name", files: map[string]string{"plugin.json": "{\"name\": \"a\", \"mcpServers\": {\n\"x__y\": {\"command\": \"c\"}}}"}, err: `plugin\.json:2:.*MCP server`},
		{name: "mcp twice", files: map[string]string{"plugin.json": `{"name": "a", "mcpServers": {"s": {"command": "c"}}}`, ".mcp.json": `{"mcpServers": {"s": {"command": "d"}}}`}, err: `defined twice`},
		{name: "bad lsp", files: map[string]string{"plugin.json": `{"name": "a"}`, ".lsp.json": "{\n\"go\": {\"args\": [1]}}"}, err: `\.lsp\.json:2:.*args\[0\] must be a string`},
		{name: "bad agent frontmatter", files: map[string]string{"plugin.json": `{"name": "a"}`, "agents/x.md": "---\nname: [\n"}, err: `x\.md:`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "p")
			writeTree(t, dir, tc.files)
			p := Load(dir)
			if tc.err == "" {
				if len(p.Errors) > 0 {
					t.Fatalf("errors: %s", errText(p))
				}
				tc.check(t, p)
				return
			}
			if !regexp.MustCompile(tc.err).MatchString(errText(p)) {
				t.Fatalf("errors %q do not match %q", errText(p), tc.err)
			}
			if len(p.SkillDirs)+len(p.CommandPaths)+len(p.Agents)+len(p.Hooks)+len(p.MCPServers)+len(p.LSPServers) > 0 {
				t.Errorf("a plugin with errors contributes: %+v", p)
			}
		})
	}
}

// A component directory that is a symbolic link out of the plugin is refused,
// the default location too; a link inside it is fine.
func TestLoadLinks(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	writeTree(t, outside, map[string]string{"hooks.json": hooksJSON, "x/SKILL.md": "x"})
	dir := filepath.Join(base, "p")
	writeTree(t, dir, map[string]string{"plugin.json": `{"name": "a"}`, "real/y/SKILL.md": "y"})
	if err := os.Symlink(outside, filepath.Join(dir, "skills")); err != nil {
		t.Fatal(err)
	}
	if p := Load(dir); !strings.Contains(errText(p), "outside the plugin") {
		t.Fatalf("a skills/ link out: %q", errText(p))
	}
	os.Remove(filepath.Join(dir, "skills"))
	if err := os.Symlink("real", filepath.Join(dir, "skills")); err != nil {
		t.Fatal(err)
	}
	if p := Load(dir); len(p.Errors) > 0 || len(p.SkillDirs) != 1 {
		t.Fatalf("a skills/ link inside: %q %v", errText(p), p.SkillDirs)
	}
	if err := os.MkdirAll(filepath.Join(dir, "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "hooks.json"), filepath.Join(dir, "hooks", "hooks.json")); err != nil {
		t.Fatal(err)
	}
	if p := Load(dir); !strings.Contains(errText(p), "outside the plugin") || len(p.Hooks) > 0 {
		t.Fatalf("a hooks.json link out: %q", errText(p))
	}
}

// ${VAR} in a plugin's server entries expands as in .mcp.json; an unset one
// with no default fails the plugin (closed), ${CLAUDE_PLUGIN_ROOT} is its root.
func TestLoadMCPExpansion(t *testing.T) {
	t.Setenv("PLUGIN_TEST_TOKEN", "tok")
	dir := filepath.Join(t.TempDir(), "p")
	writeTree(t, dir, map[string]string{"plugin.json": `{"name": "a"}`,
		".mcp.json": `{"mcpServers": {"s": {"command": "${CLAUDE_PLUGIN_ROOT}/s", "env": {"T": "${PLUGIN_TEST_TOKEN}", "D": "${PLUGIN_TEST_UNSET:-dflt}"}}}}`})
	p := Load(dir)
	if len(p.Errors) > 0 || len(p.MCPServers) != 1 {
		t.Fatalf("%q %+v", errText(p), p.MCPServers)
	}
	if s := p.MCPServers[0]; s.Command != p.Root+"/s" || s.Env["T"] != "tok" || s.Env["D"] != "dflt" || s.Fingerprint == "" {
		t.Errorf("%+v", s)
	}
	writeTree(t, dir, map[string]string{".mcp.json": "{\"mcpServers\": {\"s\": {\n\"command\": \"${PLUGIN_TEST_UNSET}\"}}}"})
	if p := Load(dir); !strings.Contains(errText(p), ".mcp.json:2:") || len(p.MCPServers) != 0 {
		t.Errorf("an unset variable: %q", errText(p))
	}
}
