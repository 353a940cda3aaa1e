package tools

import (
	"context"
	"encoding/json"
	"reflect"
)

// TypedTool is a tool written against its decoded input In (a struct whose
// json tags name the properties of the tool's schema). Typed makes it a Tool.
// It may also implement TypedSummarizer, TypedPathLister and TypedPreviewer
// for In.
type TypedTool[In any] interface {
	// Spec describes the tool, as Tool.Spec.
	Spec() Spec
	// Run performs the call with its decoded input, as Tool.Run.
	Run(ctx context.Context, env *Env, in In) (Result, error)
}

// TypedSummarizer is Summarizer for a TypedTool.
type TypedSummarizer[In any] interface {
	Summary(in In) string
}

// TypedPathLister is PathLister for a TypedTool.
type TypedPathLister[In any] interface {
	Paths(env *Env, in In) []string
}

// TypedPreviewer is Previewer for a TypedTool.
type TypedPreviewer[In any] interface {
	Preview(env *Env, in In) (diff string, err error)
}

// Typed adapts a tool written against its input struct to Tool: each entry
// point (Run, Summary, Paths, Preview) decodes the JSON input into In once and
// hands the struct to the tool. An input that does not decode (a number too
// large for the field, say, which the schema let through) is an error Run and
// Preview return — "invalid input: ..." — never a panic; Summary then falls back
// to the tool's name and Paths to nil. A null or empty input decodes to In's
// zero value, so that a missing required field gets the tool's own message. The
// result implements Previewer only when impl implements TypedPreviewer[In].
func Typed[In any](impl TypedTool[In]) Tool {
	t := typed[In]{impl: impl, spec: impl.Spec()}
	if p, ok := impl.(TypedPreviewer[In]); ok {
		return typedPreviewer[In]{typed: t, preview: p}
	}
	return t
}

// typed is Typed's Tool, Summarizer and PathLister.
type typed[In any] struct {
	impl TypedTool[In]
	spec Spec
}

// Spec returns the tool's Spec, taken once by Typed.
func (t typed[In]) Spec() Spec { return t.spec }

// Run decodes input into In and runs the tool with it.
func (t typed[In]) Run(ctx context.Context, env *Env, input json.RawMessage) (Result, error) {
	in, err := decodeInput[In](input)
	if err != nil {
		return Result{}, err
	}
	return t.impl.Run(ctx, env, in)
}

// Summary is the tool's TypedSummarizer on the decoded input, or its name.
func (t typed[In]) Summary(input json.RawMessage) string {
	s, ok := t.impl.(TypedSummarizer[In])
	if !ok {
		return t.spec.Name
	}
	in, err := decodeInput[In](input)
	if err != nil {
		return t.spec.Name
	}
	return s.Summary(in)
}

// Paths is the tool's TypedPathLister on the decoded input, or nil.
func (t typed[In]) Paths(env *Env, input json.RawMessage) []string {
	p, ok := t.impl.(TypedPathLister[In])
	if !ok {
		return nil
	}
	in, err := decodeInput[In](input)
	if err != nil {
		return nil
	}
	return p.Paths(env, in)
}

// inputType is In, for the test that schemas and input structs agree.
func (t typed[In]) inputType() reflect.Type { return reflect.TypeFor[In]() }

// typedPreviewer is typed for a tool that also previews its calls.
type typedPreviewer[In any] struct {
	typed[In]
	preview TypedPreviewer[In]
}

// Preview decodes input into In and previews the call with it.
func (t typedPreviewer[In]) Preview(env *Env, input json.RawMessage) (string, error) {
	in, err := decodeInput[In](input)
	if err != nil {
		return "", err
	}
	return t.preview.Preview(env, in)
}
