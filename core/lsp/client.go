package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"sync"
	"time"
)

// Diagnostic is one problem a language server reported for a file, as the
// model is shown it. Line and Col are 1-based (LSP's are 0-based; Col counts
// UTF-16 units, as the server sends).
type Diagnostic struct {
	Line, Col int
	Severity  int // 1 error, 2 warning, 3 information, 4 hint (LSP DiagnosticSeverity; 0: unset, taken as error)
	Message   string
	Source    string // "compiler", "go vet"...; may be empty
}

// fileDiags are the latest diagnostics of one document.
type fileDiags struct {
	version int // the document version they are for (0: the server sent none)
	seq     uint64
	list    []Diagnostic
}

// client is one running language server for one workspace root: the
// initialize handshake done, its documents and their diagnostics.
type client struct {
	conn  *conn
	close func() // ends the process and its pipes
	root  string

	mu      sync.Mutex
	seq     uint64
	diags   map[string]fileDiags // by document URI
	open    map[string]int       // document URI -> version last sent
	changed chan struct{}        // closed (and replaced) at each publishDiagnostics
}

// fileURI is the file:// URI of an absolute path.
func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// dial runs the initialize handshake over rw (the server's stdio) for root,
// bounded by ctx; stop ends the server. On failure stop has been called.
func dial(ctx context.Context, r io.Reader, w io.Writer, stop func(), root string, initOptions any) (*client, error) {
	c := &client{close: stop, root: root, diags: map[string]fileDiags{}, open: map[string]int{}, changed: make(chan struct{})}
	c.conn = newConn(r, w, c.handle, c.notification)
	params := map[string]any{
		"processId": nil,
		"rootUri":   fileURI(root),
		"workspaceFolders": []map[string]string{
			{"uri": fileURI(root), "name": filepath.Base(root)},
		},
		"clientInfo": map[string]string{"name": "pincer"},
		"capabilities": map[string]any{
			"textDocument": map[string]any{
				"synchronization":    map[string]any{"didSave": true},
				"publishDiagnostics": map[string]any{"versionSupport": true},
			},
			"workspace": map[string]any{"workspaceFolders": true, "configuration": true},
		},
	}
	if initOptions != nil {
		params["initializationOptions"] = initOptions
	}
	if err := c.conn.call(ctx, "initialize", params, nil); err != nil {
		stop()
		return nil, fmt.Errorf("initialize: %w", err)
	}
	if err := c.conn.notifyServer("initialized", map[string]any{}); err != nil {
		stop()
		return nil, err
	}
	return c, nil
}

// handle answers the server's requests: configuration (null for each item:
// the server's defaults), progress and capability registration (accepted);
// anything else is "method not found".
func (c *client) handle(method string, params json.RawMessage) (any, error) {
	switch method {
	case "workspace/configuration":
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		_ = json.Unmarshal(params, &p)
		return make([]any, len(p.Items)), nil
	case "window/workDoneProgress/create", "client/registerCapability", "client/unregisterCapability":
		return nil, nil
	case "workspace/workspaceFolders":
		return []map[string]string{{"uri": fileURI(c.root), "name": filepath.Base(c.root)}}, nil
	}
	return nil, fmt.Errorf("method not found: %s", method)
}

// notification takes textDocument/publishDiagnostics; other notifications
// (logs, progress) are dropped.
func (c *client) notification(method string, params json.RawMessage) {
	if method != "textDocument/publishDiagnostics" {
		return
	}
	var p struct {
		URI         string `json:"uri"`
		Version     *int   `json:"version"`
		Diagnostics []struct {
			Range struct {
				Start struct {
					Line      int `json:"line"`
					Character int `json:"character"`
				} `json:"start"`
			} `json:"range"`
			Severity int    `json:"severity"`
			Message  string `json:"message"`
			Source   string `json:"source"`
		} `json:"diagnostics"`
	}
	if json.Unmarshal(params, &p) != nil || p.URI == "" {
		return
	}
	fd := fileDiags{}
	if p.Version != nil {
		fd.version = *p.Version
	}
	for _, d := range p.Diagnostics {
		fd.list = append(fd.list, Diagnostic{Line: d.Range.Start.Line + 1, Col: d.Range.Start.Character + 1,
			Severity: d.Severity, Message: d.Message, Source: d.Source})
	}
	c.mu.Lock()
	c.seq++
	fd.seq = c.seq
	c.diags[p.URI] = fd
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

// sync tells the server the new content of path (didOpen the first time, a
// full-text didChange after) and that it was saved; it returns the version
// sent and the diagnostics sequence before it (waitFor's arguments).
func (c *client) sync(path, languageID, text string) (string, int, uint64, error) {
	uri := fileURI(path)
	c.mu.Lock()
	v, opened := c.open[uri]
	v++
	c.open[uri] = v
	seq := c.seq
	c.mu.Unlock()
	var err error
	if !opened {
		err = c.conn.notifyServer("textDocument/didOpen", map[string]any{
			"textDocument": map[string]any{"uri": uri, "languageId": languageID, "version": v, "text": text}})
	} else {
		err = c.conn.notifyServer("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": v},
			"contentChanges": []map[string]any{{"text": text}}})
	}
	if err == nil {
		err = c.conn.notifyServer("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
	}
	return uri, v, seq, err
}

// forget closes path's document (it was deleted) and drops its diagnostics.
func (c *client) forget(path string) {
	uri := fileURI(path)
	c.mu.Lock()
	_, opened := c.open[uri]
	delete(c.open, uri)
	delete(c.diags, uri)
	c.mu.Unlock()
	if opened {
		_ = c.conn.notifyServer("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	}
}

// fresh reports whether uri's diagnostics answer version v (sent after
// diagnostics sequence seq): the server named that version or later, or,
// sending no versions, published for uri after the change.
func (c *client) fresh(uri string, v int, seq uint64) bool {
	fd, ok := c.diags[uri]
	if !ok {
		return false
	}
	if fd.version != 0 {
		return fd.version >= v
	}
	return fd.seq > seq
}

// waitFor waits until every pending document has fresh diagnostics or ctx ends.
func (c *client) waitFor(ctx context.Context, pending []pendingDoc) {
	for {
		c.mu.Lock()
		all := true
		for _, p := range pending {
			if !c.fresh(p.uri, p.version, p.seq) {
				all = false
				break
			}
		}
		ch := c.changed
		c.mu.Unlock()
		if all {
			return
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return
		case <-c.conn.done:
			return
		}
	}
}

// pendingDoc is a document change awaiting its diagnostics.
type pendingDoc struct {
	uri     string
	version int
	seq     uint64
}

// diagnostics returns path's latest diagnostics (nil: none or not known yet).
func (c *client) diagnostics(path string) []Diagnostic {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.diags[fileURI(path)].list
}

// alive reports whether the connection still reads.
func (c *client) alive() bool {
	select {
	case <-c.conn.done:
		return false
	default:
		return true
	}
}

// shutdown asks the server to shut down and exit (bounded by wait), then
// ends the process whatever it answered.
func (c *client) shutdown(wait time.Duration) {
	if c.alive() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		err := c.conn.call(ctx, "shutdown", nil, nil)
		cancel()
		if err == nil || !errors.Is(err, errClosed) {
			_ = c.conn.notifyServer("exit", nil)
		}
		select {
		case <-c.conn.done:
		case <-time.After(wait):
		}
	}
	c.close()
}
