package gemini

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/internal/streamcase"
	"pincer/core/provider/internal/streamtest"
)

// TestStreamCases replays the package's Gemini fixtures and the captures 22-24 byte
// for byte (CRLF framing kept) and checks each parse against its header's "expected
// parse".
func TestStreamCases(t *testing.T) {
	tests := []struct {
		file      string
		text      string
		reasoning string
		calls     []streamtest.Call
		signature string // of the first call
		usage     message.Usage
		finish    string
		errKind   provider.Kind // set for streams that end in an error (no EventDone)
		errMsg    string
	}{
		{file: "testdata/gemini-text-crlf.txt", text: "Hello from Gemini — ✓", finish: "STOP",
			usage: message.Usage{InputTokens: 12, OutputTokens: 6}},
		{file: "testdata/gemini-thought-parallel-calls.txt", reasoning: "Need both files.", finish: "STOP",
			calls: []streamtest.Call{
				{ID: "gemini-call-pincerResp01-0", Name: "Read", Args: `{"file_path":"a.go","limit":20}`},
				{ID: "gemini-call-pincerResp01-1", Name: "LS", Args: `{}`},
			},
			signature: "cGluY2VyLXRob3VnaHQtc2lnbmF0dXJl",
			usage:     message.Usage{InputTokens: 300, CacheReadTokens: 256, OutputTokens: 50, ReasoningTokens: 30}},
		{file: "testdata/gemini3-partial-args.txt", finish: "STOP",
			calls: []streamtest.Call{{ID: "gemini-call-pincerResp02-0", Name: "Grep", Args: `{"pattern":"func main","glob":"*.go"}`}},
			usage: message.Usage{InputTokens: 40, OutputTokens: 12}},
		{file: "testdata/gemini-error-in-stream.txt", text: "Partial",
			errKind: provider.KindServer, errMsg: "The model is overloaded. Please try again later."},
		{file: "testdata/gemini-malformed-call.txt", text: "Let me edit",
			errKind: provider.KindMalformedCall, errMsg: "the model's function call could not be parsed (finishReason MALFORMED_FUNCTION_CALL)"},
		{file: "testdata/gemini-cut-off.txt", text: "No finish",
			errKind: provider.KindStream, errMsg: "stream ended before completion (no finishReason)"},
		{file: "22-gemini-native-text-crlf.txt", text: "Hi", finish: "STOP",
			usage: message.Usage{InputTokens: 11227, OutputTokens: 1}},
		{file: "23-gemini-native-parallel-function-calls-crlf.txt", finish: "STOP",
			calls: []streamtest.Call{
				{ID: "gemini-call-kaJmaa7wOJHA7PIPtpycgA4-0", Name: "glob", Args: `{"pattern":"*.go"}`},
				{ID: "gemini-call-kaJmaa7wOJHA7PIPtpycgA4-1", Name: "ls", Args: `{}`},
			},
			usage: message.Usage{InputTokens: 11257, OutputTokens: 5}},
		{file: "24-gemini3-vertex-partial-args.txt", finish: "STOP",
			calls: []streamtest.Call{
				{ID: "gemini-call-dqHOab6xGLzWodAPkPuViA4-0", Name: "getWeather", Args: `{"location":"Boston"}`},
				{ID: "gemini-call-dqHOab6xGLzWodAPkPuViA4-1", Name: "getWeather", Args: `{"location":"San Francisco"}`},
			},
			// candidatesTokenCount 23 + thoughtsTokenCount 132 are both output.
			usage: message.Usage{InputTokens: 26, OutputTokens: 155, ReasoningTokens: 132}},
	}
	for _, tc := range tests {
		t.Run(strings.TrimSuffix(tc.file, ".txt"), func(t *testing.T) {
			c := streamcase.Open(t, tc.file)
			if !strings.Contains(c.Header, "expected parse:") {
				t.Fatalf("header of %s has no expected parse", tc.file)
			}
			got := run(t, testProvider(streamtest.SSEServer(t, c.Payload).URL, func(c *Config) { c.MaxRetries = -1 }))
			if got.Text != tc.text || got.Reasoning != tc.reasoning || got.AfterDone != 0 {
				t.Errorf("text %q reasoning %q, %d events after done", got.Text, got.Reasoning, got.AfterDone)
			}
			if tc.errKind != "" {
				streamtest.WantErr(t, got.Err, testName, tc.errKind, tc.errMsg)
				if got.Done != 0 {
					t.Error("EventDone on a failed stream")
				}
				return
			}
			if got.Err != nil {
				t.Fatalf("err %v", got.Err)
			}
			if got.Finish != tc.finish || got.Done != 1 {
				t.Errorf("finish %q done %d", got.Finish, got.Done)
			}
			streamtest.CheckCalls(t, got.Calls, tc.calls)
			if tc.signature != "" && got.Calls[0].Signature != tc.signature {
				t.Errorf("first call's signature %q, want %q", got.Calls[0].Signature, tc.signature)
			}
			if got.UsageEvents != 1 || got.Usage != tc.usage {
				t.Errorf("usage %+v in %d events, want %+v", got.Usage, got.UsageEvents, tc.usage)
			}
			if got.Events[len(got.Events)-1].Type != provider.EventDone {
				t.Error("EventDone is not last")
			}
		})
	}
}

// TestCase24Signature: the thoughtSignature of case 24's first part stays on the first
// call, byte for byte, and not on the second; no reasoning event carries it.
func TestCase24Signature(t *testing.T) {
	c := streamcase.Load(t, "24-gemini3-vertex-partial-args.txt")
	first, _, _ := strings.Cut(string(c.Payload), "\n")
	var ch chunk
	if err := json.Unmarshal([]byte(strings.TrimPrefix(first, "data: ")), &ch); err != nil {
		t.Fatal(err)
	}
	want := ch.Candidates[0].Content.Parts[0].ThoughtSignature
	got := run(t, testProvider(streamtest.SSEServer(t, c.Payload).URL))
	if len(want) < 100 || len(got.Calls) != 2 || got.Calls[0].Signature != want || got.Calls[1].Signature != "" || len(got.Signatures) != 0 {
		t.Fatalf("calls %+v, signatures %q", got.Calls, got.Signatures)
	}
}

// TestCaseReplayedSignatureGoesBack: the assistant message built from case 24 sends
// its function calls back with the signature on the first, without synthesized ids,
// and the results as one user turn of two functionResponses.
func TestCaseReplayedSignatureGoesBack(t *testing.T) {
	c := streamcase.Load(t, "24-gemini3-vertex-partial-args.txt")
	r := run(t, testProvider(streamtest.SSEServer(t, c.Payload).URL))
	msgs := []message.Message{
		message.NewText(message.RoleUser, "weather in Boston and SF?"),
		streamtest.Assistant(r),
		message.NewToolResult(r.Calls[0].ToolCallID, "getWeather", "cold", false),
		message.NewToolResult(r.Calls[1].ToolCallID, "getWeather", "foggy", false),
	}
	s := streamtest.NewScript(t, streamtest.Stream(okStream))
	if res := streamtest.Collect(testProvider(s.URL).Stream(t.Context(), provider.Request{Model: "gemini-3.1-pro-preview", Messages: msgs})); res.Err != nil {
		t.Fatal(res.Err)
	}
	body := s.Requests()[0].Body
	contents := body["contents"].([]any)
	if len(contents) != 3 {
		t.Fatalf("contents %v", contents)
	}
	model := contents[1].(map[string]any)["parts"].([]any)
	p0, p1 := model[0].(map[string]any), model[1].(map[string]any)
	if p0["thoughtSignature"] != r.Calls[0].Signature || p1["thoughtSignature"] != nil {
		t.Errorf("model parts %v", model)
	}
	if fc := p0["functionCall"].(map[string]any); fc["id"] != nil || fc["name"] != "getWeather" || fc["args"].(map[string]any)["location"] != "Boston" {
		t.Errorf("functionCall %v", fc)
	}
	results := contents[2].(map[string]any)
	if results["role"] != "user" || len(results["parts"].([]any)) != 2 {
		t.Errorf("results %v", results)
	}
}

// TestHTTPErrors covers Google's error bodies.
func TestHTTPErrors(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		kind   provider.Kind
		msg    string
	}{
		{"invalid key is auth", 400, `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}}`,
			provider.KindAuth, "API key not valid. Please pass a valid API key."},
		{"too many input tokens", 400, `{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}`,
			provider.KindContextLength, "The input token count (1200000) exceeds"},
		{"array-wrapped quota", 429, `[{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}]`,
			provider.KindRateLimit, "Resource has been exhausted"},
		{"overloaded", 503, `{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}`,
			provider.KindServer, "The model is overloaded."},
		{"unknown model", 404, `{"error":{"code":404,"message":"models/nope is not found for API version v1beta","status":"NOT_FOUND"}}`,
			provider.KindNotFound, "models/nope is not found"},
		{"bad schema", 400, `{"error":{"code":400,"message":"Invalid JSON payload received. Unknown name \"additionalProperties\"","status":"INVALID_ARGUMENT"}}`,
			provider.KindBadRequest, `Unknown name "additionalProperties"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := streamtest.NewScript(t, streamtest.Status(tc.status, tc.body))
			r := run(t, testProvider(s.URL, func(c *Config) { c.MaxRetries = -1 }))
			perr := streamtest.WantErr(t, r.Err, testName, tc.kind, tc.msg)
			if perr.Status != tc.status || s.Hits() != 1 {
				t.Errorf("status %d requests %d", perr.Status, s.Hits())
			}
		})
	}
}

func TestRetry(t *testing.T) {
	retryInfo := `{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"0.01s"}]}}`
	t.Run("503 then RetryInfo 429 then success", func(t *testing.T) {
		s := streamtest.NewScript(t, streamtest.Status(503, `{"error":{"code":503,"message":"overloaded"}}`), streamtest.Status(429, retryInfo), streamtest.Stream(okStream))
		r := run(t, testProvider(s.URL))
		if r.Err != nil || r.Text != "hello" || s.Hits() != 3 {
			t.Fatalf("err %v text %q requests %d", r.Err, r.Text, s.Hits())
		}
	})
	t.Run("RetryInfo beyond the limit is not waited for", func(t *testing.T) {
		s := streamtest.NewScript(t, streamtest.Status(429, strings.Replace(retryInfo, "0.01s", "3600s", 1)), streamtest.Stream(okStream))
		r := run(t, testProvider(s.URL))
		streamtest.WantErr(t, r.Err, testName, provider.KindRateLimit, "quota")
		if s.Hits() != 1 {
			t.Fatalf("requests %d", s.Hits())
		}
	})
	t.Run("400 is not retried", func(t *testing.T) {
		s := streamtest.NewScript(t, streamtest.Status(400, `{"error":{"code":400,"message":"bad"}}`), streamtest.Stream(okStream))
		if r := run(t, testProvider(s.URL)); r.Err == nil || s.Hits() != 1 {
			t.Fatalf("err %v requests %d", r.Err, s.Hits())
		}
	})
	t.Run("in-stream error after text is not retried", func(t *testing.T) {
		s := streamtest.NewScript(t, streamtest.Stream(chunks(helloChunk, `{"error":{"code":503,"message":"backend died","status":"UNAVAILABLE"}}`)), streamtest.Stream(okStream))
		r := run(t, testProvider(s.URL))
		streamtest.WantErr(t, r.Err, testName, provider.KindServer, "backend died")
		if r.Text != "hello" || s.Hits() != 1 {
			t.Fatalf("text %q requests %d", r.Text, s.Hits())
		}
	})
}

// TestRequestURLAndHeaders: the model goes in the path, alt=sse in the query, the
// key in x-goog-api-key (never in the URL).
func TestRequestURLAndHeaders(t *testing.T) {
	s := streamtest.NewScript(t, func(w http.ResponseWriter) { streamtest.Stream(okStream)(w) })
	p := testProvider(s.URL+"/v1beta/", func(c *Config) { c.Headers = map[string]string{"X-Extra": "1"} })
	req := simpleRequest()
	req.Model = "models/gemini-2.5-flash"
	if r := streamtest.Collect(p.Stream(t.Context(), req)); r.Err != nil {
		t.Fatal(r.Err)
	}
	got := s.Requests()[0]
	if got.Method != "POST" || got.Path != "/v1beta/models/gemini-2.5-flash:streamGenerateContent" || got.RawQuery != "alt=sse" {
		t.Errorf("%s %s ? %s", got.Method, got.Path, got.RawQuery)
	}
	if got.Header.Get("X-Goog-Api-Key") != "gm-test" || got.Header.Get("X-Extra") != "1" || got.Header.Get("Authorization") != "" {
		t.Errorf("headers %v", got.Header)
	}
}
