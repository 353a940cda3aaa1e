package agent

import (
	"strings"
	"testing"
)

// TestSchemaValidate checks the validator on the schema shapes tools and MCP
// servers send: each input is accepted or rejected with a message naming
// what is wrong.
func TestSchemaValidate(t *testing.T) {
	const obj = `{"type":"object","properties":{"file_path":{"type":"string"},"limit":{"type":"integer","minimum":1}},"required":["file_path"],"additionalProperties":false}`
	cases := []struct {
		name, schema, input string
		want                string // "" accepts; otherwise a substring of the error
	}{
		{"ok", obj, `{"file_path":"a.go","limit":3}`, ""},
		{"missing", obj, `{}`, "file_path"},
		{"wrong-type", obj, `{"file_path":3}`, "string"},
		{"not-integer", obj, `{"file_path":"a","limit":1.5}`, "integer"},
		{"below-minimum", obj, `{"file_path":"a","limit":0}`, "minimum"},
		{"extra", obj, `{"file_path":"a","cwd":"/"}`, "cwd"},
		{"big-integer", obj, `{"file_path":"a","limit":12345678901234567890}`, ""},
		{"draft-07-ref", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"p":{"type":"string","enum":["a","b"]}},"type":"object","properties":{"mode":{"$ref":"#/definitions/p"}}}`, `{"mode":"c"}`, "enum"},
		{"2020-defs-ref", `{"$schema":"https://json-schema.org/draft/2020-12/schema","$defs":{"p":{"type":"string"}},"type":"object","properties":{"q":{"$ref":"#/$defs/p"}}}`, `{"q":1}`, "string"},
		{"draft-04-as-2020", `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"n":{"type":"number","maximum":5}},"required":["n"]}`, `{"n":6}`, "maximum"},
		{"draft-04-ok", `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"n":{"type":"number"}},"required":["n"]}`, `{"n":1}`, ""},
		{"items", `{"type":"object","properties":{"todos":{"type":"array","items":{"type":"object","required":["id"]}}}}`, `{"todos":[{"id":1},{}]}`, "id"},
		{"invalid-schema", `{"type":"object","properties":{"n":{"type":7}}}`, `{}`, "invalid schema"},
		{"unresolvable-ref", `{"type":"object","properties":{"n":{"$ref":"#/nowhere"}}}`, `{}`, "schema"},
		{"invalid-json", obj, `{"file_path":`, "not valid JSON"},
	}
	c := newSchemaCache()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tl := &fakeTool{name: "T_" + tc.name, schema: tc.schema}
			err := c.validate(tl, []byte(tc.input))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("rejected: %v", err)
			case tc.want != "" && err == nil:
				t.Fatalf("accepted, want an error naming %q", tc.want)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Fatalf("error %q does not name %q", err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}
