package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// Writing MCP server entries, for `pincer mcp add` and `remove`: the user's
// config.toml through Update (its lock, atomic, 0600; other tables kept), the
// project's .mcp.json through Edit (its lock, atomic, 0644 as a checked-in
// file; every other entry and top-level key kept as written). A file that does
// not parse is never rewritten.

// MCPServerSpec is an entry to write, as `pincer mcp add` takes it: Type
// "stdio" with Command (and Args, Env), or "http" / "sse" with URL (and
// Headers). Values are written as given: a ${VAR} stays for expansion at read.
type MCPServerSpec struct {
	Name, Type, Command string
	Args                []string
	Env                 map[string]string
	URL                 string
	Headers             map[string]string
}

// secretHeaders are header names that carry credentials.
var secretHeaders = []string{"authorization", "proxy-authorization", "cookie", "x-api-key", "api-key"}

// Check returns why the spec cannot be written, nil when it can: a bad name,
// type, URL or mix of fields, or a credential written out (an env variable or
// header whose name says it holds a secret — GITHUB_TOKEN, Authorization — with
// a value that is not a ${VAR} reference: pincer writes no secret into a config
// file; export it and write "${NAME}").
func (m MCPServerSpec) Check() error {
	if err := ValidMCPName(m.Name); err != nil {
		return err
	}
	switch m.Type {
	case "stdio":
		if strings.TrimSpace(m.Command) == "" {
			return errors.New("a stdio server needs a command")
		}
		if len(m.Headers) > 0 || m.URL != "" {
			return errors.New("a stdio server takes -e, not -H or a URL")
		}
	case "http", "sse":
		if m.Command != "" || len(m.Args) > 0 || len(m.Env) > 0 {
			return fmt.Errorf("an %s server takes a URL and -H, not a command, arguments or -e", m.Type)
		}
		if !strings.Contains(m.URL, "${") {
			if u, err := url.Parse(m.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return fmt.Errorf("want an http(s) URL such as https://mcp.example.com/mcp, got %q", m.URL)
			}
		}
	default:
		return fmt.Errorf("transport %q is not one of %s", m.Type, strings.Join(MCPTypes, ", "))
	}
	for _, n := range sortedKeys(m.Env) {
		if IsSecretKey(n) && !strings.Contains(m.Env[n], "${") {
			return fmt.Errorf("-e %s: pincer writes no secret into a config file: export %s and pass -e '%s=${%s}'", n, n, n, n)
		}
	}
	for _, n := range sortedKeys(m.Headers) {
		if (slices.Contains(secretHeaders, strings.ToLower(n)) || IsSecretKey(n)) && !strings.Contains(m.Headers[n], "${") {
			return fmt.Errorf("-H %s: pincer writes no secret into a config file: export it (MCP_TOKEN, say) and pass -H '%s: Bearer ${MCP_TOKEN}'", n, n)
		}
	}
	return nil
}

// fields is the entry as a file holds it (Type "stdio" left implicit, as Claude
// Code writes it).
func (m MCPServerSpec) fields() map[string]any {
	out := map[string]any{}
	if m.Type == "stdio" {
		out["command"] = m.Command
		out["args"] = append([]string{}, m.Args...)
		if len(m.Env) > 0 {
			out["env"] = m.Env
		}
		return out
	}
	out["type"], out["url"] = m.Type, m.URL
	if len(m.Headers) > 0 {
		out["headers"] = m.Headers
	}
	return out
}

// AddMCPServer writes spec as [mcp.servers.NAME] of the user's config.toml
// (replacing an entry of that name).
func AddMCPServer(userConfig string, spec MCPServerSpec) error {
	if err := spec.Check(); err != nil {
		return err
	}
	return Update(userConfig, func(u *UserFile) error {
		u.k.Delete("mcp.servers." + spec.Name)
		for k, v := range spec.fields() {
			switch v := v.(type) {
			case []string:
				if err := u.k.Set("mcp.servers."+spec.Name+"."+k, toAny(v)); err != nil {
					return err
				}
			case map[string]string:
				m := map[string]any{}
				for n, s := range v {
					m[n] = s
				}
				if err := u.k.Set("mcp.servers."+spec.Name+"."+k, m); err != nil {
					return err
				}
			default:
				if err := u.k.Set("mcp.servers."+spec.Name+"."+k, v); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// RemoveMCPServer removes [mcp.servers.NAME] from the user's config.toml; found
// is false (and nothing is written) when it has none.
func RemoveMCPServer(userConfig, name string) (found bool, err error) {
	err = Update(userConfig, func(u *UserFile) error {
		servers, _ := u.k.Raw()["mcp"].(map[string]any)
		servers, _ = servers["servers"].(map[string]any)
		if _, found = servers[name]; !found {
			return errUnchanged
		}
		u.k.Delete("mcp.servers." + name)
		return nil
	})
	if errors.Is(err, errUnchanged) {
		err = nil
	}
	return found, err
}

// errUnchanged stops an Edit that has nothing to write.
var errUnchanged = errors.New("unchanged")

// AddMCPJSONServer writes spec into the .mcp.json at path (created when
// missing), replacing an entry of that name and keeping every other.
func AddMCPJSONServer(path string, spec MCPServerSpec) error {
	if err := spec.Check(); err != nil {
		return err
	}
	entry, err := json.Marshal(spec.fields())
	if err != nil {
		return err
	}
	return editMCPJSON(path, func(servers map[string]json.RawMessage) bool {
		servers[spec.Name] = entry
		return true
	})
}

// RemoveMCPJSONServer removes the entry name from the .mcp.json at path; found
// is false (and nothing is written) when it has none.
func RemoveMCPJSONServer(path, name string) (found bool, err error) {
	err = editMCPJSON(path, func(servers map[string]json.RawMessage) bool {
		_, found = servers[name]
		delete(servers, name)
		return found
	})
	if errors.Is(err, errUnchanged) {
		err = nil
	}
	return found, err
}

// editMCPJSON changes the mcpServers object of the .mcp.json at path under
// Edit; change reports whether it changed anything. A file that does not parse
// (as core/config reads it: duplicate keys too) is an error, never rewritten.
func editMCPJSON(path string, change func(map[string]json.RawMessage) bool) error {
	return Edit(path, 0o644, func(old []byte) ([]byte, error) {
		top := map[string]json.RawMessage{}
		if len(bytes.TrimSpace(old)) > 0 {
			if _, _, fe := decodeJSON(path, old); fe != nil {
				return nil, fe
			}
			if err := json.Unmarshal(old, &top); err != nil {
				return nil, JSONError(path, old, err)
			}
		}
		servers := map[string]json.RawMessage{}
		if raw, ok := top["mcpServers"]; ok {
			if err := json.Unmarshal(raw, &servers); err != nil {
				return nil, fmt.Errorf("%s: mcpServers must be an object", path)
			}
		}
		if !change(servers) {
			return nil, errUnchanged
		}
		enc, err := json.Marshal(servers)
		if err != nil {
			return nil, err
		}
		top["mcpServers"] = enc
		var out bytes.Buffer
		raw, err := json.Marshal(top)
		if err != nil {
			return nil, err
		}
		if err := json.Indent(&out, raw, "", "  "); err != nil {
			return nil, err
		}
		out.WriteByte('\n')
		return out.Bytes(), nil
	})
}
