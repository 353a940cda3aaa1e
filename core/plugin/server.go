package plugin

import (
	"fmt"
	"sort"

	"pincer/core/config"
	"pincer/core/mcp"
)

// serverConfig reads one MCP server entry at key of d, in .mcp.json's shape
// ({"command","args","env"} | {"type":"http"|"sse","url","headers"}; "type":
// "stdio" too), with ${CLAUDE_PLUGIN_ROOT} replaced by root in every string.
func serverConfig(d *config.Document, key string, raw any, root string) (mcp.ServerConfig, error) {
	obj, ok := raw.(map[string]any)
	if !ok {
		return mcp.ServerConfig{}, d.ErrorAt(key, "an MCP server entry must be an object")
	}
	var errs []error
	sc := mcp.ServerConfig{
		Transport: mcp.Transport(strField(d, key, obj, "type", &errs)),
		Command:   ExpandRoot(strField(d, key, obj, "command", &errs), root),
		URL:       ExpandRoot(strField(d, key, obj, "url", &errs), root),
	}
	for _, a := range strList(d, key, obj, "args", &errs) {
		sc.Args = append(sc.Args, ExpandRoot(a, root))
	}
	if env := strMap(d, key, obj, "env", &errs); len(env) > 0 {
		sc.Env = map[string]string{}
		for k, v := range env {
			sc.Env[k] = ExpandRoot(v, root)
		}
	}
	if h := strMap(d, key, obj, "headers", &errs); len(h) > 0 {
		sc.Headers = map[string]string{}
		for k, v := range h {
			sc.Headers[k] = ExpandRoot(v, root)
		}
	}
	if len(errs) > 0 {
		return sc, errs[0]
	}
	switch sc.Transport {
	case "":
		if sc.Command == "" {
			return sc, d.ErrorAt(key, "an MCP server entry needs a \"command\" (stdio) or a \"type\" and \"url\"")
		}
		sc.Transport = mcp.TransportStdio
	case mcp.TransportStdio:
		if sc.Command == "" {
			return sc, d.ErrorAt(key, "a stdio MCP server needs a \"command\"")
		}
	case mcp.TransportHTTP, mcp.TransportSSE:
		if sc.URL == "" {
			return sc, d.ErrorAt(key, "an %s MCP server needs a \"url\"", sc.Transport)
		}
	default:
		return sc, d.ErrorAt(key+".type", "MCP server type %q is not one of stdio, http, sse", sc.Transport)
	}
	if sc.Transport == mcp.TransportStdio && sc.URL != "" || sc.Transport != mcp.TransportStdio && sc.Command != "" {
		return sc, d.ErrorAt(key, "an MCP server entry has either a \"command\" (stdio) or a \"url\" (http, sse), not both")
	}
	return sc, nil
}

// strField reads obj[name] as an optional string.
func strField(d *config.Document, key string, obj map[string]any, name string, errs *[]error) string {
	switch v := obj[name].(type) {
	case nil:
		return ""
	case string:
		return v
	}
	*errs = append(*errs, d.ErrorAt(key+"."+name, "%s must be a string", name))
	return ""
}

// strList reads obj[name] as an optional list of strings.
func strList(d *config.Document, key string, obj map[string]any, name string, errs *[]error) []string {
	raw, ok := obj[name]
	if !ok || raw == nil {
		return nil
	}
	list, ok := raw.([]any)
	if !ok {
		*errs = append(*errs, d.ErrorAt(key+"."+name, "%s must be a list of strings", name))
		return nil
	}
	var out []string
	for i, el := range list {
		s, ok := el.(string)
		if !ok {
			*errs = append(*errs, d.ErrorAt(fmt.Sprintf("%s.%s[%d]", key, name, i), "%s[%d] must be a string", name, i))
			continue
		}
		out = append(out, s)
	}
	return out
}

// strMap reads obj[name] as an optional object of strings.
func strMap(d *config.Document, key string, obj map[string]any, name string, errs *[]error) map[string]string {
	raw, ok := obj[name]
	if !ok || raw == nil {
		return nil
	}
	m, ok := raw.(map[string]any)
	if !ok {
		*errs = append(*errs, d.ErrorAt(key+"."+name, "%s must be an object of strings", name))
		return nil
	}
	out := map[string]string{}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s, ok := m[k].(string)
		if !ok {
			*errs = append(*errs, d.ErrorAt(key+"."+name+"."+k, "%s.%s must be a string", name, k))
			continue
		}
		out[k] = s
	}
	return out
}
