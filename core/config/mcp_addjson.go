package config

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// MCPSpecFromJSON is the entry `pincer mcp add-json NAME JSON` writes, from
// JSON in the shape of one .mcp.json entry ({"command", "args", "env"} or
// {"type", "url", "headers"}), as Claude Code's `claude mcp add-json`: an
// unknown key, a value of the wrong type or trailing data is an error; a
// command without a type is stdio. The spec is checked (MCPServerSpec.Check:
// name, shape, no secret written out) before it is returned.
func MCPSpecFromJSON(name, data string) (MCPServerSpec, error) {
	var raw struct {
		Type    string            `json:"type"`
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env"`
		URL     string            `json:"url"`
		Headers map[string]string `json:"headers"`
	}
	dec := json.NewDecoder(strings.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return MCPServerSpec{}, fmt.Errorf("the server's JSON: %v (want {\"command\": ..., \"args\": [...], \"env\": {...}} or {\"type\": \"http\", \"url\": ..., \"headers\": {...}})", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return MCPServerSpec{}, fmt.Errorf("the server's JSON: data after the object")
	}
	spec := MCPServerSpec{Name: name, Type: raw.Type, Command: raw.Command, Args: raw.Args, Env: raw.Env, URL: raw.URL, Headers: raw.Headers}
	if spec.Type == "" && spec.Command != "" {
		spec.Type = "stdio"
	}
	if err := spec.Check(); err != nil {
		return MCPServerSpec{}, err
	}
	return spec, nil
}
