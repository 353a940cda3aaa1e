package plugin

import (
	"fmt"
	"sort"

	"pincer/core/config"
)

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
