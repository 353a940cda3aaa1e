package agent

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	xmessage "golang.org/x/text/message"

	"pincer/tools"
)

// schemaCache compiles each tool's input schema once and validates inputs against it.
type schemaCache struct {
	mu       sync.Mutex
	compiled map[string]*jsonschema.Schema
}

func newSchemaCache() *schemaCache {
	return &schemaCache{compiled: map[string]*jsonschema.Schema{}}
}

// validate checks input (a JSON object) against tl's schema. The error is one line
// listing each violation with its location, e.g. "missing property 'file_path'".
func (c *schemaCache) validate(tl tools.Tool, input []byte) error {
	sch, err := c.get(tl)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(input))
	if err != nil {
		return fmt.Errorf("arguments are not valid JSON: %v", err)
	}
	if err := sch.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return errors.New(flattenValidation(ve))
		}
		return err
	}
	return nil
}

func (c *schemaCache) get(tl tools.Tool) (*jsonschema.Schema, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	// Keyed by name and schema: an MCP server that relists a tool with another
	// schema gets the new one checked.
	key := tl.Spec().Name + "\x00" + string(tl.Spec().Schema)
	if s, ok := c.compiled[key]; ok {
		return s, nil
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(tl.Spec().Schema))
	if err != nil {
		return nil, fmt.Errorf("tool %s has an invalid schema: %v", tl.Spec().Name, err)
	}
	comp := jsonschema.NewCompiler()
	url := "tool://" + tl.Spec().Name + ".json"
	if err := comp.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("tool %s schema: %v", tl.Spec().Name, err)
	}
	s, err := comp.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("tool %s schema: %v", tl.Spec().Name, err)
	}
	c.compiled[key] = s
	return s, nil
}

// printer renders validation messages in English.
var printer = xmessage.NewPrinter(language.English)

// flattenValidation lists the leaf violations of a validation error on one line.
func flattenValidation(ve *jsonschema.ValidationError) string {
	var msgs []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			loc := "/" + strings.Join(e.InstanceLocation, "/")
			msg := e.ErrorKind.LocalizedString(printer)
			if loc == "/" {
				msgs = append(msgs, msg)
			} else {
				msgs = append(msgs, "at "+loc+": "+msg)
			}
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return strings.Join(msgs, "; ")
}
