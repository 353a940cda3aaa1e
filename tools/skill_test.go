package tools

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func TestSkillTool(t *testing.T) {
	var gotName, gotArgs string
	tl := Typed(Skill{Load: func(_ context.Context, name, args string) (string, error) {
		gotName, gotArgs = name, args
		if name == "nope" {
			return "", errors.New("no skill named nope")
		}
		return "Base directory for this skill: /s\n\nDo it.", nil
	}})
	res, err := tl.Run(context.Background(), &Env{}, json.RawMessage(`{"skill":"/pdf","args":"a.pdf"}`))
	if err != nil || res.IsError || res.Output != "Base directory for this skill: /s\n\nDo it." || gotName != "pdf" || gotArgs != "a.pdf" {
		t.Errorf("%+v %v (%q %q)", res, err, gotName, gotArgs)
	}
	res, _ = tl.Run(context.Background(), &Env{}, json.RawMessage(`{"skill":"nope"}`))
	if !res.IsError || res.Output != "no skill named nope" {
		t.Errorf("%+v", res)
	}
	if Summary(tl, json.RawMessage(`{"skill":"pdf"}`)) != "Skill pdf" || tl.Spec().Kind != KindRead {
		t.Error("summary or kind")
	}
	var schema map[string]any
	if err := json.Unmarshal(tl.Spec().Schema, &schema); err != nil {
		t.Fatal(err)
	}
	for _, p := range schemaAgrees("", schema, reflect.TypeOf(SkillInput{})) {
		t.Error(p)
	}
}
