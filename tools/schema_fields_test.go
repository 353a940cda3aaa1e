package tools

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestSchemaNamesInputFields checks, for every built-in tool, that its
// hand-written JSON schema and the input struct Typed decodes into agree: the
// schema's properties are exactly the struct's json names, a property is
// required exactly when its field is not omitempty, and each property's type
// is the field's (string, integer, boolean, array of the element's, object of
// the struct's own fields, checked the same way).
func TestSchemaNamesInputFields(t *testing.T) {
	for _, tool := range Default().All() {
		t.Run(tool.Spec().Name, func(t *testing.T) {
			typedIn, ok := tool.(interface{ inputType() reflect.Type })
			if !ok {
				t.Fatalf("%s is not a Typed tool", tool.Spec().Name)
			}
			var schema map[string]any
			if err := json.Unmarshal(tool.Spec().Schema, &schema); err != nil {
				t.Fatal(err)
			}
			for _, problem := range schemaAgrees("", schema, typedIn.inputType()) {
				t.Error(problem)
			}
		})
	}
}

// schemaAgrees lists the disagreements between the object schema s and the
// struct type typ, naming each by its JSON path under at.
func schemaAgrees(at string, s map[string]any, typ reflect.Type) []string {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct {
		return []string{at + ": schema is an object, field type is " + typ.String()}
	}
	props, _ := s["properties"].(map[string]any)
	var required []string
	if r, ok := s["required"].([]any); ok {
		for _, v := range r {
			required = append(required, v.(string))
		}
	}
	var problems []string
	seen := map[string]bool{}
	for i := range typ.NumField() {
		f := typ.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		seen[name] = true
		where := at + "/" + name
		p, ok := props[name].(map[string]any)
		if !ok {
			problems = append(problems, where+": field "+typ.Name()+"."+f.Name+" has no schema property")
			continue
		}
		omitempty := slices.Contains(strings.Split(opts, ","), "omitempty")
		if isReq := slices.Contains(required, name); isReq == omitempty {
			problems = append(problems, where+": required in the schema is "+boolWord(isReq)+", but the field's omitempty is "+boolWord(omitempty))
		}
		problems = append(problems, typeAgrees(where, p, f.Type)...)
	}
	for name := range props {
		if !seen[name] {
			problems = append(problems, at+"/"+name+": schema property has no field in "+typ.Name())
		}
	}
	for _, name := range required {
		if !seen[name] {
			problems = append(problems, at+"/"+name+": required by the schema but no field in "+typ.Name())
		}
	}
	return problems
}

// typeAgrees compares one property's schema type with a field's Go type.
func typeAgrees(where string, p map[string]any, typ reflect.Type) []string {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	want := map[reflect.Kind]string{
		reflect.String: "string", reflect.Bool: "boolean",
		reflect.Int: "integer", reflect.Int64: "integer", reflect.Int32: "integer", reflect.Float64: "number",
		reflect.Slice: "array", reflect.Struct: "object",
	}[typ.Kind()]
	got, _ := p["type"].(string)
	if want == "" || got != want {
		return []string{where + ": schema type " + got + ", field type " + typ.String()}
	}
	switch typ.Kind() {
	case reflect.Slice:
		items, ok := p["items"].(map[string]any)
		if !ok {
			return []string{where + ": array without items"}
		}
		return typeAgrees(where+"[]", items, typ.Elem())
	case reflect.Struct:
		return schemaAgrees(where, p, typ)
	}
	return nil
}

func boolWord(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
