package tools

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestParseSearchPolicy(t *testing.T) {
	cases := []struct {
		in   string
		want SearchPolicy
		bad  bool
	}{
		{in: "auto", want: SearchPolicy{}},
		{in: " AUTO ", want: SearchPolicy{}},
		{in: "auto:5", want: SearchPolicy{Percent: 5}},
		{in: "auto:25%", want: SearchPolicy{Percent: 25}},
		{in: "auto:100", want: SearchPolicy{Percent: 100}},
		{in: "always", want: SearchPolicy{Mode: SearchAlways}},
		{in: "true", want: SearchPolicy{Mode: SearchAlways}},
		{in: "1", want: SearchPolicy{Mode: SearchAlways}},
		{in: "never", want: SearchPolicy{Mode: SearchNever}},
		{in: "false", want: SearchPolicy{Mode: SearchNever}},
		{in: "0", want: SearchPolicy{Mode: SearchNever}},
		{in: "auto:0", bad: true},
		{in: "auto:101", bad: true},
		{in: "auto:x", bad: true},
		{in: "", bad: true},
		{in: "sometimes", bad: true},
	}
	for _, c := range cases {
		got, err := ParseSearchPolicy(c.in)
		if (err != nil) != c.bad {
			t.Errorf("%q: err %v, want bad=%v", c.in, err, c.bad)
			continue
		}
		if !c.bad && got != c.want {
			t.Errorf("%q = %+v, want %+v", c.in, got, c.want)
		}
	}
	if s := (SearchPolicy{}).String(); s != "auto:10" {
		t.Errorf("zero policy = %q", s)
	}
}

// spec of about tokens estimated tokens.
func sizedSpec(name string, d Deferral, tokens int) Spec {
	desc := strings.Repeat("x", max(0, tokens*4-len(name)-2-32))
	return Spec{Name: name, Description: desc, Schema: json.RawMessage(`{}`), Defer: d}
}

func TestDeferred(t *testing.T) {
	// 1,000-token window: auto's 10% is 100 tokens.
	small := []Spec{sizedSpec("Read", DeferNever, 500), sizedSpec("mcp__a__x", DeferAuto, 40), sizedSpec("mcp__a__y", DeferAuto, 40)}
	big := []Spec{sizedSpec("Read", DeferNever, 500), sizedSpec("mcp__a__x", DeferAuto, 60), sizedSpec("mcp__a__y", DeferAuto, 60)}
	always := append(slices.Clone(small), sizedSpec("Rare", DeferAlways, 1))
	withSearch := append(slices.Clone(big), Spec{Name: ToolSearchName, Defer: DeferAlways})
	cases := []struct {
		name   string
		specs  []Spec
		policy SearchPolicy
		window int64
		want   []string
	}{
		{"auto under the threshold defers nothing", small, SearchPolicy{}, 1000, nil},
		{"auto over the threshold defers the auto tools", big, SearchPolicy{}, 1000, []string{"mcp__a__x", "mcp__a__y"}},
		{"a built-in's size does not count", small, SearchPolicy{Percent: 50}, 1000, nil},
		{"auto:N moves the threshold", small, SearchPolicy{Percent: 5}, 1000, []string{"mcp__a__x", "mcp__a__y"}},
		{"auto:N above the size", big, SearchPolicy{Percent: 20}, 1000, nil},
		{"always defers auto tools of any size", small, SearchPolicy{Mode: SearchAlways}, 1000, []string{"mcp__a__x", "mcp__a__y"}},
		{"DeferAlways under auto", always, SearchPolicy{}, 1000, []string{"Rare"}},
		{"never defers nothing", append(slices.Clone(big), sizedSpec("Rare", DeferAlways, 1)), SearchPolicy{Mode: SearchNever}, 1000, nil},
		{"unknown window: AssumedContextWindow", big, SearchPolicy{}, 0, nil},
		{"ToolSearch itself is never deferred", withSearch, SearchPolicy{}, 1000, []string{"mcp__a__x", "mcp__a__y"}},
	}
	for _, c := range cases {
		got := slices.Sorted(maps.Keys(Deferred(c.specs, c.policy, c.window)))
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: deferred %v, want %v", c.name, got, c.want)
		}
	}
	// The threshold is strict: exactly 10% is not past it.
	exact := []Spec{{Name: "mcp__a__x", Defer: DeferAuto, Description: strings.Repeat("x", 4*92-len("mcp__a__x"))}}
	if n := SpecTokens(exact[0]); n != 100 {
		t.Fatalf("fixture: %d tokens", n)
	}
	if d := Deferred(exact, SearchPolicy{}, 1000); d != nil {
		t.Errorf("exactly at 10%%: deferred %v", d)
	}
	if d := Deferred(exact, SearchPolicy{}, 999); !d["mcp__a__x"] {
		t.Errorf("past 10%%: not deferred")
	}
}
