// Package lsp runs language servers (gopls, pyright, typescript-language-server,
// plugins' .lsp.json servers) for the files the model's tools change, and keeps
// their diagnostics for the next model call's dynamic prompt (the diagnostics
// segment), as Claude Code's LSP support feeds a server's diagnostics back to
// the model after an edit. A server starts lazily, on the first changed file of
// one of its extensions, one per workspace root, under the session's sandbox
// policy (sandbox.Executor.StartPiped); it speaks JSON-RPC 2.0 over stdio with
// the LSP base protocol's Content-Length framing (conn.go).
package lsp

import (
	"os/exec"
	"path/filepath"
	"strings"
)

// Server is one language server definition.
type Server struct {
	Name    string   // "gopls", or the config table's / plugin's name
	Command string   // the program (looked up in PATH when it has no slash)
	Args    []string // its arguments
	// Extensions map the file extensions it serves (".go", with the dot) to
	// the LSP languageId sent in didOpen ("go"); an empty id uses the
	// extension without its dot.
	Extensions map[string]string
	Env        []string // KEY=VALUE added to the sandbox's environment allowlist
	Origin     string   // where it was defined: "default", "config", "plugin:NAME"
}

// defaultServers are the servers used when their program is on PATH and no
// configured server claims the extension (README "Language servers").
var defaultServers = []Server{
	{Name: "gopls", Command: "gopls", Extensions: map[string]string{".go": "go"}},
	{Name: "pyright", Command: "pyright-langserver", Args: []string{"--stdio"},
		Extensions: map[string]string{".py": "python", ".pyi": "python"}},
	{Name: "typescript", Command: "typescript-language-server", Args: []string{"--stdio"},
		Extensions: map[string]string{".ts": "typescript", ".tsx": "typescriptreact", ".js": "javascript",
			".jsx": "javascriptreact", ".mjs": "javascript", ".cjs": "javascript", ".mts": "typescript", ".cts": "typescript"}},
}

// Defaults returns the default servers whose program lookPath finds
// (exec.LookPath when nil), Origin "default".
func Defaults(lookPath func(string) (string, error)) []Server {
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	var out []Server
	for _, s := range defaultServers {
		if _, err := lookPath(s.Command); err == nil {
			s.Origin = "default"
			out = append(out, s)
		}
	}
	return out
}

// Resolve is the servers in force: configured ones first (config, then
// plugins, as given), then the defaults for the extensions no configured
// server claims; disabled names (a config table with disabled = true) drop
// the default of that name.
func Resolve(configured, defaults []Server, disabled []string) []Server {
	out := append([]Server(nil), configured...)
	claimed := map[string]bool{}
	for _, s := range configured {
		for ext := range s.Extensions {
			claimed[ext] = true
		}
	}
	for _, d := range defaults {
		if contains(disabled, d.Name) || hasName(configured, d.Name) {
			continue
		}
		free := false
		for ext := range d.Extensions {
			if !claimed[ext] {
				free = true
			}
		}
		if free {
			out = append(out, d)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func hasName(list []Server, name string) bool {
	for _, s := range list {
		if s.Name == name {
			return true
		}
	}
	return false
}

// serverFor is the first server of list serving path's extension, and the
// document's languageId.
func serverFor(list []Server, path string) (Server, string, bool) {
	ext := strings.ToLower(filepath.Ext(path))
	if ext == "" {
		return Server{}, "", false
	}
	for _, s := range list {
		if id, ok := s.Extensions[ext]; ok {
			if id == "" {
				id = strings.TrimPrefix(ext, ".")
			}
			return s, id, true
		}
	}
	return Server{}, "", false
}

// languageIDs are LSP languageIds of common extensions; others use the
// extension without its dot.
var languageIDs = map[string]string{".go": "go", ".py": "python", ".pyi": "python", ".ts": "typescript",
	".tsx": "typescriptreact", ".js": "javascript", ".jsx": "javascriptreact", ".rs": "rust", ".c": "c",
	".h": "c", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp", ".rb": "ruby", ".sh": "shellscript", ".md": "markdown"}

// LanguageID is the languageId didOpen sends for extension ext (".go").
func LanguageID(ext string) string {
	if id, ok := languageIDs[strings.ToLower(ext)]; ok {
		return id
	}
	return strings.TrimPrefix(strings.ToLower(ext), ".")
}
