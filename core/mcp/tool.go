package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"pincer/tools"
)

// Tool is one tool of an MCP server as the model sees it: named
// mcp__SERVER__TOOL (Claude Code's form), Origin "mcp:SERVER", deferred
// automatically (tools.DeferAuto), and of kind execute whatever the server's
// readOnlyHint says — that hint is the server's claim, so the permission
// engine decides on an MCP call as on any tool that runs something. Its
// Schema is the server's inputSchema (an object schema when the server sends
// none or something else). A call goes to the connection the tool was listed
// on; once that connection is gone the call fails with a result naming the
// server, and the Manager reconnects.
type Tool struct {
	srv    *server
	sess   *sdk.ClientSession
	remote string // the tool's name on the server
	spec   tools.Spec
}

// emptyObjectSchema is the schema of a tool whose server sends none usable.
const emptyObjectSchema = `{"type":"object","properties":{}}`

func newTool(s *server, sess *sdk.ClientSession, rt *sdk.Tool) *Tool {
	desc := rt.Description
	if desc == "" {
		desc = rt.Title
	}
	return &Tool{srv: s, sess: sess, remote: rt.Name, spec: tools.Spec{
		Name:        ToolName(s.cfg.Name, rt.Name),
		Description: desc,
		Schema:      objectSchema(rt.InputSchema),
		Kind:        tools.KindExecute,
		Defer:       tools.DeferAuto,
		Origin:      toolOrigin(s.cfg),
	}}
}

// objectSchema is the server's input schema as JSON when it is an object
// schema (a JSON object whose "type", if any, is "object"; "type" is added when
// missing), else a schema of an object with no declared properties.
func objectSchema(in any) json.RawMessage {
	b, err := json.Marshal(in)
	if err != nil {
		return json.RawMessage(emptyObjectSchema)
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil || m == nil {
		return json.RawMessage(emptyObjectSchema)
	}
	switch t := m["type"].(type) {
	case nil:
		m["type"] = "object"
	case string:
		if t != "object" {
			return json.RawMessage(emptyObjectSchema)
		}
	default:
		return json.RawMessage(emptyObjectSchema)
	}
	if out, err := json.Marshal(m); err == nil {
		return out
	}
	return json.RawMessage(emptyObjectSchema)
}

// Spec is the tool's description for the model and the permission engine.
func (t *Tool) Spec() tools.Spec { return t.spec }

// Server is the name of the tool's server; Remote the tool's name there.
func (t *Tool) Server() string { return t.srv.cfg.Name }

// Remote is the tool's own name on its server (before sanitising).
func (t *Tool) Remote() string { return t.remote }

// Summary is "SERVER: TOOL ARGS" with the arguments' JSON cut to 80 characters.
func (t *Tool) Summary(input json.RawMessage) string {
	args := strings.TrimSpace(string(input))
	if args == "{}" || args == "" || args == "null" {
		args = ""
	}
	if r := []rune(args); len(r) > 80 {
		args = string(r[:79]) + "…"
	}
	return strings.TrimSpace(fmt.Sprintf("%s: %s %s", t.srv.cfg.Name, t.remote, args))
}

// Run calls the tool on its server with input, cancelled with ctx. The result's
// content becomes the text the model reads (resultText); isError is
// Result.IsError; a text longer than MaxResultTokens (at 4 characters a token)
// is spilled to a file under env.SpillDir that the model can Read, as a long
// Bash output is. An error the server answers with (unknown tool, bad
// arguments) is a tool result marked as an error; a broken connection is a tool
// result naming the server and the failure, and starts a reconnect.
func (t *Tool) Run(ctx context.Context, env *tools.Env, input json.RawMessage) (tools.Result, error) {
	if t.srv.ctx.Err() != nil {
		return tools.Result{Output: fmt.Sprintf("MCP server %s is shut down", t.srv.cfg.Name), IsError: true}, nil
	}
	var args map[string]any
	if len(input) > 0 && string(input) != "null" {
		if err := json.Unmarshal(input, &args); err != nil {
			return tools.Result{}, fmt.Errorf("arguments are not a JSON object: %v", err)
		}
	}
	callCtx := ctx
	if d := t.srv.m.opts.CallTimeout; d > 0 {
		var cancel context.CancelFunc
		callCtx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	res, err := t.sess.CallTool(callCtx, &sdk.CallToolParams{Name: t.remote, Arguments: args})
	if err != nil {
		if ctx.Err() != nil {
			return tools.Result{}, ctx.Err()
		}
		if callCtx.Err() != nil {
			return tools.Result{Output: fmt.Sprintf("MCP server %s did not answer %s within %s (MCP_TOOL_TIMEOUT)", t.srv.cfg.Name, t.remote, t.srv.m.opts.CallTimeout), IsError: true}, nil
		}
		var werr *jsonrpc.Error
		if errors.As(err, &werr) {
			return tools.Result{Output: fmt.Sprintf("MCP server %s refused the call: %s", t.srv.cfg.Name, werr.Message), IsError: true}, nil
		}
		t.srv.fail(t.sess, fmt.Errorf("a call of %s failed: %v", t.remote, err))
		return tools.Result{Output: fmt.Sprintf("MCP server %s disconnected: %v; pincer is reconnecting", t.srv.cfg.Name, err), IsError: true}, nil
	}
	out := resultText(res)
	r := tools.Result{Output: out, IsError: res.IsError}
	if env != nil && env.SpillDir != "" {
		shown, _, _ := tools.Spill(env.SpillDir, env.ToolCallID, out, maxResultChars)
		r.Output = shown
	} else if len([]rune(out)) > maxResultChars {
		r.Output = string([]rune(out)[:maxResultChars]) + fmt.Sprintf("\n[... output cut at %d characters ...]", maxResultChars)
	}
	if r.Output != out {
		r.OutputLines = strings.Count(out, "\n") + 1
	}
	return r, nil
}

// toolOrigin is the Origin of a server's tools: "mcp:SERVER", or for a
// plugin's server "plugin:NAME" (the plugin the person installed, which the
// audit trail and the views name; the tool's name mcp__plugin_NAME_S__T names
// the server).
func toolOrigin(cfg ServerConfig) string {
	if cfg.Scope == ScopePlugin && cfg.Plugin != "" {
		return "plugin:" + cfg.Plugin
	}
	return "mcp:" + cfg.Name
}
