package registry

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"pincer/core/config"
	"pincer/core/message"
	"pincer/core/provider"
)

// Minimal streams of one text answer "hi", in each API's wire format.
var streams = map[string]string{
	"/chat/completions": "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n",
	"/v1/messages": "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}\n\n" +
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":2}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
	"/models/m:streamGenerateContent": "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"hi\"}]},\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":3,\"candidatesTokenCount\":1}}\r\n\r\n",
	"/responses": "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\"hi\"}\n\n" +
		"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"status\":\"completed\",\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\n",
}

// Model lists in each API's format.
var lists = map[string]string{
	"chat":      `{"object":"list","data":[{"id":"c1"},{"id":"c2"}]}`,
	"responses": `{"object":"list","data":[{"id":"c1"},{"id":"c2"}]}`,
	"anthropic": `{"data":[{"id":"c1","type":"model","display_name":"C1","created_at":"2025-01-01T00:00:00Z"},{"id":"c2","type":"model","display_name":"C2","created_at":"2025-01-01T00:00:00Z"}],"has_more":false,"first_id":"c1","last_id":"c2"}`,
	"gemini":    `{"models":[{"name":"models/c1","supportedGenerationMethods":["generateContent"]},{"name":"models/c2"}]}`,
}

// server answers every API under one root (srv.URL + "/" + api) and records the
// requests.
type server struct {
	*httptest.Server
	mu   sync.Mutex
	seen []*http.Request
	body []map[string]any
}

func newServer(t *testing.T) *server {
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		s.mu.Lock()
		s.seen, s.body = append(s.seen, r), append(s.body, body)
		s.mu.Unlock()
		api, path, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		path = "/" + path
		if r.Method == http.MethodGet && strings.HasSuffix(path, "/models") {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, lists[api])
			return
		}
		payload, ok := streams[path]
		if !ok {
			http.Error(w, `{"error":{"message":"no route `+path+`"}}`, http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, payload)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) last() (*http.Request, map[string]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen[len(s.seen)-1], s.body[len(s.body)-1]
}

func cfgFor(s *server, api, name string) provider.HTTPConfig {
	return provider.HTTPConfig{Name: name, BaseURL: s.URL + "/" + api, APIKey: "k-" + api, MaxRetries: -1}
}

// text streams one request and returns the text and the error.
func text(t *testing.T, p provider.Provider, req provider.Request) string {
	t.Helper()
	var b strings.Builder
	done := false
	for ev, err := range p.Stream(context.Background(), req) {
		if err != nil {
			t.Fatalf("%s: %v", p.Name(), err)
		}
		b.WriteString(ev.Text)
		done = done || ev.Type == provider.EventDone
	}
	if !done {
		t.Fatalf("%s: no EventDone", p.Name())
	}
	return b.String()
}

func TestEveryAPIStreamsAndLists(t *testing.T) {
	s := newServer(t)
	auth := map[string][2]string{
		APIChat: {"Authorization", "Bearer k-chat"}, APIResponses: {"Authorization", "Bearer k-responses"},
		APIAnthropic: {"X-Api-Key", "k-anthropic"}, APIGemini: {"X-Goog-Api-Key", "k-gemini"},
	}
	for _, api := range APIs() {
		p, err := New(api, cfgFor(s, api, "prov-"+api))
		if err != nil {
			t.Fatal(err)
		}
		if p.Name() != "prov-"+api {
			t.Errorf("%s: Name() = %q", api, p.Name())
		}
		if got := text(t, p, provider.Request{Model: "m", Messages: []message.Message{message.NewText(message.RoleUser, "q")}}); got != "hi" {
			t.Errorf("%s: text %q, want hi", api, got)
		}
		r, _ := s.last()
		if h := auth[api]; r.Header.Get(h[0]) != h[1] {
			t.Errorf("%s: %s = %q, want %q", api, h[0], r.Header.Get(h[0]), h[1])
		}
		ids, err := ListModels(context.Background(), api, cfgFor(s, api, "prov-"+api))
		if err != nil || !slices.Equal(ids, []string{"c1", "c2"}) {
			t.Errorf("%s: ListModels = %v, %v", api, ids, err)
		}
	}
}

func TestEmptyAPIIsChatAndUnknownFails(t *testing.T) {
	s := newServer(t)
	p, err := New("", cfgFor(s, "chat", "x"))
	if err != nil || text(t, p, provider.Request{Model: "m"}) != "hi" {
		t.Fatalf("empty api: %v", err)
	}
	if _, err := New("grpc", provider.HTTPConfig{}); err == nil || !strings.Contains(err.Error(), `"grpc"`) || !strings.Contains(err.Error(), "responses") {
		t.Errorf("unknown api: %v", err)
	}
	if _, err := ListModels(context.Background(), "grpc", provider.HTTPConfig{}); err == nil {
		t.Error("ListModels of an unknown api succeeded")
	}
}

// The registry builds exactly the wire APIs a configuration may name.
func TestAPIsMatchTheConfiguration(t *testing.T) {
	if want := slices.Sorted(slices.Values(config.APIs)); !slices.Equal(APIs(), want) {
		t.Errorf("registry APIs %v, configuration APIs %v", APIs(), want)
	}
}

func TestProfiles(t *testing.T) {
	s := newServer(t)
	// OpenRouter's attribution title is added; a configured header wins over it and
	// the configuration's map is left alone.
	headers := map[string]string{"X-Custom": "1"}
	cfg := cfgFor(s, "chat", "openrouter")
	cfg.Headers = headers
	p, _ := New(APIChat, cfg)
	text(t, p, provider.Request{Model: "m"})
	if r, _ := s.last(); r.Header.Get("X-Title") != "pincer" || r.Header.Get("X-Custom") != "1" {
		t.Errorf("openrouter headers %v", r.Header)
	}
	if len(headers) != 1 {
		t.Errorf("the configuration's headers were modified: %v", headers)
	}
	cfg.Headers = map[string]string{"X-Title": "mine"}
	p, _ = New(APIChat, cfg)
	text(t, p, provider.Request{Model: "m"})
	if r, _ := s.last(); r.Header.Get("X-Title") != "mine" {
		t.Errorf("configured X-Title lost: %q", r.Header.Get("X-Title"))
	}
	// Other providers get no attribution header.
	p, _ = New(APIChat, cfgFor(s, "chat", "openai"))
	text(t, p, provider.Request{Model: "m"})
	if r, _ := s.last(); r.Header.Get("X-Title") != "" {
		t.Errorf("openai sent X-Title %q", r.Header.Get("X-Title"))
	}

	// DeepSeek gets the reasoning of the tool loop in progress back; others do not.
	tool := message.Part{Type: message.PartToolCall, ToolCallID: "c1", ToolName: "Read", Input: `{}`}
	req := provider.Request{Model: "m", Messages: []message.Message{
		message.NewText(message.RoleUser, "q"),
		{Role: message.RoleAssistant, Parts: []message.Part{{Type: message.PartReasoning, Text: "think"}, tool}},
		{Role: message.RoleTool, Parts: []message.Part{{Type: message.PartToolResult, ToolCallID: "c1", Text: "r"}}},
	}}
	for name, want := range map[string]bool{"deepseek": true, "openai": false} {
		p, _ := New(APIChat, cfgFor(s, "chat", name))
		text(t, p, req)
		_, body := s.last()
		msgs, _ := body["messages"].([]any)
		sent := strings.Contains(func() string { b, _ := json.Marshal(msgs); return string(b) }(), `"reasoning_content":"think"`)
		if sent != want {
			t.Errorf("%s: reasoning_content sent %v, want %v (%v)", name, sent, want, msgs)
		}
	}
}
