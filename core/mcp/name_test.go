package mcp

import (
	"strings"
	"testing"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestToolName(t *testing.T) {
	for _, c := range []struct{ server, tool, want string }{
		{"everything", "echo", "mcp__everything__echo"},
		{"everything", "get-sum", "mcp__everything__get-sum"},
		{"my server", "read.file", "mcp__my_server__read_file"},
		{"fs", "wrіte_file", "mcp__fs__wr_te_file"}, // Cyrillic і
		{"fs", "write_file\n", "mcp__fs__write_file_"},
		{"fs", "", "mcp__fs__"},
	} {
		if got := ToolName(c.server, c.tool); got != c.want {
			t.Errorf("ToolName(%q, %q) = %q, want %q", c.server, c.tool, got, c.want)
		}
	}
}

func TestCheckServerName(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"everything", true}, {"file-system", true}, {"my_server2", true},
		{"", false}, {"a__b", false}, {"a___b", false}, {"_a", false}, {"a_", false},
		{"a b", false}, {"a.b", false}, {"fіlesystem", false}, {"a/b", false},
	} {
		if err := CheckServerName(c.name); (err == nil) != c.ok {
			t.Errorf("CheckServerName(%q) = %v, want ok %v", c.name, err, c.ok)
		}
	}
}

func TestObjectSchema(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{
		{nil, emptyObjectSchema},
		{"x", emptyObjectSchema},
		{map[string]any{"type": "string"}, emptyObjectSchema},
		{map[string]any{"type": []any{"object", "null"}}, emptyObjectSchema},
		{map[string]any{"properties": map[string]any{}}, `{"properties":{},"type":"object"}`},
		{map[string]any{"type": "object", "required": []any{"a"}}, `{"required":["a"],"type":"object"}`},
	} {
		if got := string(objectSchema(c.in)); got != c.want {
			t.Errorf("objectSchema(%v) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestResultText(t *testing.T) {
	size := int64(3)
	for _, c := range []struct {
		name string
		res  *sdk.CallToolResult
		want string
	}{
		{"texts joined", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "a"}, &sdk.TextContent{Text: "b"}}}, "a\n\nb"},
		{"image note", &sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/png", Data: []byte("12345")}}}, "[image: image/png, 5 bytes]"},
		{"audio note", &sdk.CallToolResult{Content: []sdk.Content{&sdk.AudioContent{Data: []byte("1")}}}, "[audio: unknown type, 1 bytes]"},
		{"link", &sdk.CallToolResult{Content: []sdk.Content{&sdk.ResourceLink{URI: "file:///a", Name: "a", MIMEType: "text/plain", Size: &size}}}, "[resource link: file:///a (a), text/plain]"},
		{"embedded text", &sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "demo://r/1", Text: "body"}}}}, "[resource: demo://r/1]\nbody"},
		{"embedded blob", &sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "demo://b", MIMEType: "application/gzip", Blob: []byte("xy")}}}}, "[resource: demo://b, application/gzip, 2 bytes]"},
		{"structured only", &sdk.CallToolResult{StructuredContent: map[string]any{"n": 1}}, `{"n":1}`},
	} {
		if got := resultText(c.res); got != c.want {
			t.Errorf("%s: resultText = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestCutInstructions(t *testing.T) {
	if got := cutInstructions("  short  "); got != "short" {
		t.Errorf("short: %q", got)
	}
	long := strings.Repeat("é", 3000)
	got := cutInstructions(long)
	if len(got) > MaxInstructions || !strings.HasSuffix(got, "cut at 2 KB]") || !utf8.ValidString(got) {
		t.Errorf("long: %d bytes, ends %q", len(got), got[len(got)-20:])
	}
}
