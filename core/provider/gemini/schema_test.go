package gemini

import (
	"encoding/json"
	"testing"
)

func TestSanitizeSchema(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain object schema is kept, key order too",
			`{"type":"object","properties":{"path":{"type":"string","description":"file"},"limit":{"type":"integer","minimum":1}},"required":["path"]}`,
			`{"type":"object","properties":{"path":{"type":"string","description":"file"},"limit":{"type":"integer","minimum":1}},"required":["path"]}`},
		{"JSON-Schema-only keywords are dropped",
			`{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"x","type":"object","additionalProperties":false,
			  "properties":{"a":{"type":"string","default":"x","examples":["y"],"$comment":"c","readOnly":true}},
			  "patternProperties":{"^x":{"type":"string"}},"unevaluatedProperties":false}`,
			`{"type":"object","properties":{"a":{"type":"string"}}}`},
		{"const becomes a one-value enum",
			`{"type":"object","properties":{"kind":{"type":"string","const":"file"}}}`,
			`{"type":"object","properties":{"kind":{"type":"string","enum":["file"]}}}`},
		{"const without type implies a string",
			`{"type":"object","properties":{"kind":{"const":"file"}}}`,
			`{"type":"object","properties":{"kind":{"enum":["file"],"type":"string"}}}`},
		{"non-string enum and const are dropped",
			`{"type":"object","properties":{"n":{"type":"integer","enum":[1,2]},"m":{"type":"number","const":3}}}`,
			`{"type":"object","properties":{"n":{"type":"integer"},"m":{"type":"number"}}}`},
		{"null in enum sets nullable",
			`{"type":"object","properties":{"mode":{"type":["string","null"],"enum":["a","b",null]}}}`,
			`{"type":"object","properties":{"mode":{"type":"string","enum":["a","b"],"nullable":true}}}`},
		{"type array with null sets nullable",
			`{"type":"object","properties":{"a":{"type":["null","integer"]}}}`,
			`{"type":"object","properties":{"a":{"type":"integer","nullable":true}}}`},
		{"type array of several types becomes anyOf",
			`{"type":"object","properties":{"a":{"type":["string","number"],"description":"d"}}}`,
			`{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"number"}],"description":"d"}}}`},
		{"oneOf becomes anyOf",
			`{"type":"object","properties":{"a":{"oneOf":[{"type":"string"},{"type":"integer","exclusiveMinimum":0}]}}}`,
			`{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"integer","minimum":1}]}}}`},
		{"integer exclusive bounds become the next inclusive ones",
			`{"type":"object","properties":{"n":{"type":"integer","exclusiveMinimum":0,"exclusiveMaximum":10}}}`,
			`{"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":9}}}`},
		{"number exclusive bounds: inclusive bound plus the exact one in the description",
			`{"type":"object","properties":{"x":{"type":"number","description":"ratio","exclusiveMinimum":0,"exclusiveMaximum":1.5}}}`,
			`{"type":"object","properties":{"x":{"type":"number","description":"ratio Must be greater than 0. Must be less than 1.5.","minimum":0,"maximum":1.5}}}`},
		{"draft-4 boolean exclusive bounds",
			`{"type":"object","properties":{"n":{"type":"integer","minimum":5,"exclusiveMinimum":true},"x":{"type":"number","maximum":2,"exclusiveMaximum":true},"y":{"type":"integer","minimum":3,"exclusiveMinimum":false}}}`,
			`{"type":"object","properties":{"n":{"type":"integer","minimum":6},"x":{"type":"number","maximum":2,"description":"Must be less than 2."},"y":{"type":"integer","minimum":3}}}`},
		{"a tighter inclusive bound wins over the exclusive one",
			`{"type":"object","properties":{"n":{"type":"integer","minimum":10,"exclusiveMinimum":0}}}`,
			`{"type":"object","properties":{"n":{"type":"integer","minimum":10}}}`},
		{"a non-number exclusive bound is dropped",
			`{"type":"object","properties":{"n":{"type":"integer","exclusiveMinimum":"zero"}}}`,
			`{"type":"object","properties":{"n":{"type":"integer"}}}`},
		{"anyOf with a null branch collapses into a nullable type",
			`{"type":"object","properties":{"a":{"description":"maybe","anyOf":[{"type":"string","maxLength":9},{"type":"null"}]}}}`,
			`{"type":"object","properties":{"a":{"description":"maybe","type":"string","maxLength":9,"nullable":true}}}`},
		{"$ref to $defs is inlined, siblings win",
			`{"type":"object","$defs":{"Pos":{"type":"object","description":"a position","properties":{"line":{"type":"integer"}},"required":["line"]}},
			  "properties":{"at":{"$ref":"#/$defs/Pos","description":"where"}}}`,
			`{"type":"object","properties":{"at":{"type":"object","description":"where","properties":{"line":{"type":"integer"}},"required":["line"]}}}`},
		{"recursive $ref is cut",
			`{"type":"object","definitions":{"N":{"type":"object","properties":{"next":{"$ref":"#/definitions/N"}}}},"properties":{"head":{"$ref":"#/definitions/N"}}}`,
			`{"type":"object","properties":{"head":{"type":"object","properties":{"next":{"type":"object","properties":{"next":{"type":"object","properties":{"next":{"type":"object","properties":{"next":{"type":"object","properties":{"next":{"type":"object","properties":{"next":{"type":"object","properties":{"next":{"type":"object","properties":{"next":{"type":"object"}}}}}}}}}}}}}}}}}}}`},
		{"unknown $ref is any object",
			`{"type":"object","properties":{"x":{"$ref":"https://example.com/s.json"}}}`,
			`{"type":"object","properties":{"x":{"type":"object"}}}`},
		{"allOf is merged",
			`{"allOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"properties":{"b":{"type":"integer"}},"required":["b"]}]}`,
			`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a","b"]}`},
		{"required keeps only existing properties",
			`{"type":"object","properties":{"a":{"type":"string"}},"required":["a","ghost"]}`,
			`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`},
		{"unsupported formats are dropped, known ones kept",
			`{"type":"object","properties":{"u":{"type":"string","format":"uri"},"t":{"type":"string","format":"date-time"},"i":{"type":"integer","format":"int64"},"f":{"type":"number","format":"int32"}}}`,
			`{"type":"object","properties":{"u":{"type":"string"},"t":{"type":"string","format":"date-time"},"i":{"type":"integer","format":"int64"},"f":{"type":"number"}}}`},
		{"arrays: tuple items take the first, missing items become strings",
			`{"type":"object","properties":{"pair":{"type":"array","items":[{"type":"integer"},{"type":"string"}],"minItems":2},"tags":{"type":"array","uniqueItems":true}}}`,
			`{"type":"object","properties":{"pair":{"type":"array","items":{"type":"integer"},"minItems":2},"tags":{"type":"array","items":{"type":"string"}}}}`},
		{"nested objects are sanitised, empty properties dropped",
			`{"type":"object","properties":{"opts":{"type":"object","properties":{},"additionalProperties":{"type":"string"}}}}`,
			`{"type":"object","properties":{"opts":{"type":"object"}}}`},
		{"HTML characters stay readable",
			`{"type":"object","properties":{"a":{"type":"string","description":"a < b && c > d"}}}`,
			`{"type":"object","properties":{"a":{"type":"string","description":"a < b && c > d"}}}`},
		{"no properties: no parameters", `{"type":"object","properties":{},"additionalProperties":false}`, ``},
		{"empty schema: no parameters", `{}`, ``},
		{"invalid JSON: no parameters", `{"type":`, ``},
		{"not an object: no parameters", `true`, ``},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := SanitizeSchema(json.RawMessage(tc.in))
			if string(got) != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
			if got != nil && !json.Valid(got) {
				t.Fatalf("invalid JSON %s", got)
			}
		})
	}
}
