package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// duplicateKey returns the first object key given twice in the same object of
// the JSON text raw (as "path.key"), or "" when there is none or raw does not
// parse (the caller reports that). encoding/json keeps the last of two equal
// keys; a tool call like {"command":"ls","command":"rm ..."} then shows one
// thing in the raw input and runs another, so such input is refused, as the
// settings files refuse it (core/config).
func duplicateKey(raw []byte) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var walk func(path string) (string, bool)
	walk = func(path string) (string, bool) {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return "", false
				}
				k, _ := kt.(string)
				if seen[k] {
					return strings.TrimPrefix(path+"."+k, "."), true
				}
				seen[k] = true
				if d, ok := walk(path + "." + k); ok || d != "" {
					return d, ok
				}
			}
			_, _ = dec.Token() // '}'
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if d, ok := walk(fmt.Sprintf("%s[%d]", path, i)); ok || d != "" {
					return d, ok
				}
			}
			_, _ = dec.Token() // ']'
		}
		return "", false
	}
	d, _ := walk("")
	return d
}
