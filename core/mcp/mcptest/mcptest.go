// Package mcptest finds the real MCP servers the tests run against — the npm
// packages @modelcontextprotocol/server-everything and server-filesystem,
// installed by .ci/run — and serves a Go-SDK MCP server over HTTP (streamable
// or the legacy SSE transport) inside a test. Test-only: nothing in the binary
// imports it.
package mcptest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"pincer/core/mcp"
)

// Pinned versions .ci/run installs (the newest that run on Node 20).
const (
	EverythingVersion = "2026.8.31"
	FilesystemVersion = "2026.8.31"
)

// NodeDir is the npm prefix holding the servers: $PINCER_TEST_NODE_DIR, else
// the module's .cache/mcp-node, else $HOME/.cache/pincer/mcp-node — the first
// that has node_modules/@modelcontextprotocol/server-everything; "" when none.
func NodeDir() string {
	var dirs []string
	if d := os.Getenv("PINCER_TEST_NODE_DIR"); d != "" {
		dirs = append(dirs, d)
	}
	if root := moduleRoot(); root != "" {
		dirs = append(dirs, filepath.Join(root, ".cache", "mcp-node"))
	}
	if h, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(h, ".cache", "pincer", "mcp-node"))
	}
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")); err == nil {
			return d
		}
	}
	return ""
}

func moduleRoot() string {
	d, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		p := filepath.Dir(d)
		if p == d {
			return ""
		}
		d = p
	}
}

// need skips t when node or the servers are missing — unless
// PINCER_REQUIRE_MCP_SERVERS is set (.ci/run sets it), when it fails.
func need(t testing.TB) string {
	t.Helper()
	dir := NodeDir()
	_, nodeErr := exec.LookPath("node")
	if dir != "" && nodeErr == nil {
		return dir
	}
	msg := "MCP servers not installed (run .ci/run, or npm install --prefix $PINCER_TEST_NODE_DIR @modelcontextprotocol/server-everything@" +
		EverythingVersion + " @modelcontextprotocol/server-filesystem@" + FilesystemVersion + ")"
	if os.Getenv("PINCER_REQUIRE_MCP_SERVERS") != "" {
		t.Fatal(msg)
	}
	t.Skip("skipped (counted): " + msg)
	return ""
}

// Everything is the config of server-everything over stdio, named name.
func Everything(t testing.TB, name string) mcp.ServerConfig {
	dir := need(t)
	return mcp.ServerConfig{Name: name, Transport: mcp.TransportStdio, Command: "node", Scope: mcp.ScopeUser, Approved: true,
		Args: []string{filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"), "stdio"}}
}

// Filesystem is the config of server-filesystem over stdio allowed root, named name.
func Filesystem(t testing.TB, name, root string) mcp.ServerConfig {
	dir := need(t)
	return mcp.ServerConfig{Name: name, Transport: mcp.TransportStdio, Command: "node", Scope: mcp.ScopeUser, Approved: true,
		Args: []string{filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js"), root}}
}

// GoServer is a Go-SDK MCP server served over HTTP for a test: a tool
// "greet" {name} answering "hello, NAME", instructions, and AddTool to change
// its tool list (the server then sends notifications/tools/list_changed).
type GoServer struct {
	Server *sdk.Server
	URL    string
	// Calls counts the greet calls served.
	Calls atomic.Int64
	// Headers are the last request's headers.
	Headers atomic.Value

	srv *httptest.Server
}

// Close stops serving (a server that went away); its connections are cut.
func (g *GoServer) Close() {
	g.srv.CloseClientConnections()
	g.srv.Close()
}

// Instructions is what the Go server says in initialize.
const Instructions = "Use greet to say hello."

type greetIn struct {
	Name string `json:"name" jsonschema:"who to greet"`
}

// NewGoServer starts a Go-SDK server on an httptest server: streamable HTTP
// (sse false) or the legacy SSE transport. It stops with the test.
func NewGoServer(t testing.TB, sse bool) *GoServer {
	g := &GoServer{}
	g.Server = sdk.NewServer(&sdk.Implementation{Name: "gotest", Version: "1"}, &sdk.ServerOptions{Instructions: Instructions})
	sdk.AddTool(g.Server, &sdk.Tool{Name: "greet", Description: "Say hello to someone."},
		func(_ context.Context, _ *sdk.CallToolRequest, in greetIn) (*sdk.CallToolResult, any, error) {
			g.Calls.Add(1)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "hello, " + in.Name}}}, nil, nil
		})
	get := func(*http.Request) *sdk.Server { return g.Server }
	var h http.Handler
	if sse {
		h = sdk.NewSSEHandler(get, nil)
	} else {
		h = sdk.NewStreamableHTTPHandler(get, nil)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.Headers.Store(r.Header.Clone())
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	g.srv = srv
	g.URL = srv.URL
	return g
}

// AddTool adds a tool "NAME" answering its name, which makes the server tell
// connected clients its tool list changed.
func (g *GoServer) AddTool(name string) {
	sdk.AddTool(g.Server, &sdk.Tool{Name: name, Description: "Test tool " + name + "."},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf("tool %s ran", name)}}}, nil, nil
		})
}
