package agent

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"pincer/tools"
)

// Start-up cost: the validator is google/jsonschema-go (the MCP SDK's own,
// linked anyway), whose package init is ~0.1 ms; santhosh-tekuri/jsonschema,
// used before, compiled every draft's meta-schemas in its init (~2.5 ms in
// every process, the sandbox helper included). Nothing is compiled before a
// tool is first called.

// schemaCache compiles each tool's input schema once and validates inputs against it.
type schemaCache struct {
	mu       sync.Mutex
	compiled map[string]*jsonschema.Resolved
}

func newSchemaCache() *schemaCache {
	return &schemaCache{compiled: map[string]*jsonschema.Resolved{}}
}

// validate checks input (a JSON object) against tl's schema. The error is one
// line naming the failing keyword and its location, e.g.
// `validating root: required: missing properties: ["file_path"]`.
func (c *schemaCache) validate(tl tools.Tool, input []byte) error {
	rs, err := c.get(tl)
	if err != nil {
		return err
	}
	var inst any
	if err := json.Unmarshal(input, &inst); err != nil {
		return fmt.Errorf("arguments are not valid JSON: %v", err)
	}
	if err := rs.Validate(inst); err != nil {
		return fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "jsonschema: "))
	}
	return nil
}

// get returns tl's resolved schema, compiling it on first use.
func (c *schemaCache) get(tl tools.Tool) (*jsonschema.Resolved, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	// Keyed by name and schema: an MCP server that relists a tool with another
	// schema gets the new one checked.
	key := tl.Spec().Name + "\x00" + string(tl.Spec().Schema)
	if s, ok := c.compiled[key]; ok {
		return s, nil
	}
	rs, err := compileSchema(tl.Spec().Name, tl.Spec().Schema)
	if err != nil {
		return nil, err
	}
	c.compiled[key] = rs
	return rs, nil
}

// compileSchema parses and resolves one tool's input schema. A schema that
// declares a draft this validator does not implement (draft-04, draft-06,
// 2019-09: older MCP servers) is read as draft 2020-12, which agrees with them
// on the keywords tool schemas use (type, properties, required, enum, items,
// bounds); one that does not parse as such (draft-04's boolean
// exclusiveMaximum) is an invalid schema, and calls of that tool fail.
func compileSchema(name string, raw json.RawMessage) (*jsonschema.Resolved, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("tool %s has an invalid schema: %v", name, err)
	}
	if !validatedDraft(s.Schema) {
		s.Schema = ""
	}
	rs, err := s.Resolve(&jsonschema.ResolveOptions{BaseURI: "tool://" + name + ".json"})
	if err != nil {
		return nil, fmt.Errorf("tool %s schema: %v", name, err)
	}
	return rs, nil
}

// validatedDraft reports whether google/jsonschema-go validates a schema
// declaring $schema as its own draft (draft-07, 2020-12, or none).
func validatedDraft(uri string) bool {
	switch strings.TrimSuffix(uri, "#") {
	case "", "http://json-schema.org/draft-07/schema", "https://json-schema.org/draft-07/schema",
		"https://json-schema.org/draft/2020-12/schema":
		return true
	}
	return false
}
