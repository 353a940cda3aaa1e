package mcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"pincer/core/mcp"
	"pincer/core/mcp/mcptest"
	"pincer/tools"
)

// benchCall times one tool call round trip through the adapter.
func benchCall(b *testing.B, reg *tools.Registry, name, input string, want string) {
	tl, ok := reg.Get(name)
	if !ok {
		b.Fatalf("no %s", name)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := tl.Run(context.Background(), nil, json.RawMessage(input))
		if err != nil || !strings.Contains(res.Output, want) {
			b.Fatalf("%+v %v", res, err)
		}
	}
}

func benchManager(b *testing.B, cfg mcp.ServerConfig) *tools.Registry {
	reg := tools.NewRegistry()
	m := mcp.NewManager(mcp.Options{Registry: reg, LogDir: b.TempDir()})
	b.Cleanup(func() { m.Close() })
	m.Start(context.Background(), []mcp.ServerConfig{cfg})
	if !m.WaitReady(context.Background(), 30*time.Second) {
		b.Fatal("not ready")
	}
	return reg
}

// BenchmarkCallStdioEverything: mcp__everything__echo over stdio to the real
// server-everything (Node).
func BenchmarkCallStdioEverything(b *testing.B) {
	reg := benchManager(b, mcptest.Everything(b, "everything"))
	benchCall(b, reg, "mcp__everything__echo", `{"message":"bench"}`, "bench")
}

// BenchmarkCallStreamableGo: greet over streamable HTTP to a Go-SDK server.
func BenchmarkCallStreamableGo(b *testing.B) {
	g := mcptest.NewGoServer(b, false)
	reg := benchManager(b, mcp.ServerConfig{Name: "go", Transport: mcp.TransportHTTP, URL: g.URL, Approved: true})
	benchCall(b, reg, "mcp__go__greet", `{"name":"b"}`, "hello, b")
}

// BenchmarkConnectEverything: spawn server-everything, initialize, list its
// tools, prompts and resources, register the tools — what start-up costs a
// server in the background.
func BenchmarkConnectEverything(b *testing.B) {
	cfg := mcptest.Everything(b, "everything")
	for b.Loop() {
		reg := tools.NewRegistry()
		m := mcp.NewManager(mcp.Options{Registry: reg})
		m.Start(context.Background(), []mcp.ServerConfig{cfg})
		if !m.WaitReady(context.Background(), 30*time.Second) || len(reg.Names()) == 0 {
			b.Fatal("not ready")
		}
		b.StopTimer()
		m.Close()
		b.StartTimer()
	}
}

// BenchmarkCloseEverything: stop a ready server-everything (SIGTERM to its
// process group, session closed, group SIGKILLed).
func BenchmarkCloseEverything(b *testing.B) {
	cfg := mcptest.Everything(b, "everything")
	for b.Loop() {
		b.StopTimer()
		m := mcp.NewManager(mcp.Options{})
		m.Start(context.Background(), []mcp.ServerConfig{cfg})
		if !m.WaitReady(context.Background(), 30*time.Second) {
			b.Fatal("not ready")
		}
		b.StartTimer()
		m.Close()
	}
}

// BenchmarkResultSpill: a 100 KB text result into what the model reads (and
// spilled to a file past 25,000 tokens).
func BenchmarkResultSpill(b *testing.B) {
	g := mcptest.NewGoServer(b, false)
	long := strings.Repeat("0123456789", 11000)
	sdk.AddTool(g.Server, &sdk.Tool{Name: "long"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: long}}}, nil, nil
	})
	reg := benchManager(b, mcp.ServerConfig{Name: "go", Transport: mcp.TransportHTTP, URL: g.URL, Approved: true})
	tl, _ := reg.Get("mcp__go__long")
	env := &tools.Env{SpillDir: b.TempDir(), ToolCallID: "c"}
	b.ReportAllocs()
	for b.Loop() {
		res, err := tl.Run(context.Background(), env, json.RawMessage(`{}`))
		if err != nil || !strings.Contains(res.Output, "full output") {
			b.Fatalf("%.100s %v", res.Output, err)
		}
	}
}
