package openai

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/internal/streamcase"
	"pincer/core/provider/internal/streamtest"
)

// longText is a reasoning text given by a header as length, start and end.
type longText struct {
	runes      int
	start, end string
}

// streamCase is the expected parse of one capture, copied from its header.
type streamCase struct {
	file      string
	text      string
	reasoning string    // exact, unless long is set
	long      *longText // for headers that give "N characters, starts ... ends ..."
	signature string
	calls     []streamtest.Call
	finish    string
	usage     *message.Usage // nil: the stream carries no usage
	errKind   provider.Kind  // set for streams that end in an error (no EventDone)
	errMsg    string
}

var streamCases = []streamCase{
	// The package's own fixtures (testdata/), run on every clone.
	{file: "testdata/chat-text-usage.txt", text: "Hello, world! Ünïcode ✓", finish: "stop",
		usage: &message.Usage{InputTokens: 120, OutputTokens: 9, CacheReadTokens: 64}},
	{file: "testdata/chat-parallel-tools-split-args.txt", finish: "tool_calls",
		calls: []streamtest.Call{{ID: "call_read_1", Name: "Read", Args: `{"file_path":"main.go"}`}, {ID: "call_grep_2", Name: "Grep", Args: `{"pattern":"func main"}`}},
		usage: &message.Usage{InputTokens: 800, OutputTokens: 40, ReasoningTokens: 16}},
	{file: "testdata/chat-reasoning-content-crlf.txt", reasoning: "The user greets. Answer briefly.", text: "Hi!", finish: "stop",
		usage: &message.Usage{InputTokens: 10, OutputTokens: 12, ReasoningTokens: 8}},
	{file: "testdata/chat-midstream-error-chunk.txt", text: "Partial", errKind: provider.KindServer,
		errMsg: "Upstream provider returned an error"}, // the finish came in the same chunk: no "(after ...)"
	{file: "testdata/chat-error-event.txt", text: "Let me", errKind: provider.KindStream,
		errMsg: "tool call validation failed: parameters did not match schema"},
	{file: "testdata/chat-cut-off.txt", errKind: provider.KindStream,
		errMsg: "stream ended before completion (no finish_reason, no [DONE])"},
	// The captures of shared/cases/streams (the conformance suite).
	{file: "01-openai-chat-text-usage-chunk.txt", text: "Greeting Message", finish: "stop",
		usage: &message.Usage{InputTokens: 142, OutputTokens: 2}},
	{file: "02-openai-chat-single-tool-split-args.txt", finish: "tool_calls",
		calls: []streamtest.Call{{ID: "call_5ErEJQ9boiXg4O7SoB2c4Atc", Name: "bash", Args: `{"command":"printf 'hello bash' > test.txt","description":"Create test.txt with content"}`}},
		usage: &message.Usage{InputTokens: 6384, OutputTokens: 870, CacheReadTokens: 3456, ReasoningTokens: 832}},
	{file: "03-openai-chat-parallel-tools.txt", finish: "tool_calls",
		calls: []streamtest.Call{
			{ID: "call_XNJBmJ3UIKrBN8hBqcEaU9yu", Name: "glob", Args: `{"pattern": "**/*.go"}`},
			{ID: "call_3gjn2wDOLXX3t9EvrY16cw5N", Name: "ls", Args: `{"depth": 1}`},
		},
		usage: &message.Usage{InputTokens: 6395, OutputTokens: 630, CacheReadTokens: 3456, ReasoningTokens: 576}},
	{file: "04-openai-chat-legacy-function-call.txt", finish: "function_call",
		calls: []streamtest.Call{{ID: "call_*", Name: "csv_categorization_tool", Args: `{"categories":"Electronics, Clothing, Home Goods, Toys, Other","column_to_use_for_categorization":"Description","delimiter":",","encoding":"utf-8","input_csv_path":"categorizer_test_data.csv","new_column_name":"Type","quotechar":"\""}`}}},
	{file: "07-deepseek-reasoner-reasoning-content.txt", finish: "stop",
		long: &longText{882, `Hmm, the user just said "Hello". It's a simple greeting but `, ` polite, they might not reply further - and that's okay too.`},
		text: "Hello there! 😊 How can I help you today?",
		// cached_tokens=0 and prompt_cache_hit_tokens=0.
		usage: &message.Usage{InputTokens: 6, OutputTokens: 212, ReasoningTokens: 198}},
	{file: "08-deepseek-reasoner-tool-call.txt", finish: "tool_calls",
		long:  &longText{191, "The user is asking for the weather in San Francisco. I need ", `her tool with the location parameter set to "San Francisco".`},
		calls: []streamtest.Call{{ID: "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF", Name: "weather", Args: `{"location": "San Francisco"}`}},
		usage: &message.Usage{InputTokens: 339, OutputTokens: 83, CacheReadTokens: 320, ReasoningTokens: 39}},
	{file: "09-deepseek-v4-proxy-parallel-tools-reasoning.txt", finish: "tool_calls",
		reasoning: "The user wants me to run glob for .go files and ls for current directory in parallel.",
		text:      "\n\n", // kept as sent; the agent decides what whitespace-only text means
		calls: []streamtest.Call{
			{ID: "call_67389dea0febe22c", Name: "glob", Args: `{"pattern":"**/*.go"}`},
			{ID: "call_9b9d9dc30e777faf", Name: "ls", Args: `{"path":"/tmp/crush-test/TestCoderAgent/deepseek-v4/parallel_tool_calls"}`},
		},
		usage: &message.Usage{InputTokens: 9005, OutputTokens: 115, CostUSD: f64(0.0134379696)}},
	{file: "10-openrouter-comments-parallel-tools-dup-finish.txt", finish: "tool_calls",
		calls: []streamtest.Call{{ID: "glob:0", Name: "glob", Args: `{"pattern": "*.go"}`}, {ID: "ls:1", Name: "ls", Args: `{}`}},
		usage: &message.Usage{InputTokens: 6513, OutputTokens: 24, CacheReadTokens: 6144, CostUSD: f64(0.0039678)}},
	{file: "11-openrouter-reasoning-details.txt", finish: "stop",
		reasoning: "This is a simple arithmetic question. 2+2 equals 4.",
		signature: "Et0BCkgIChACGAIqQA2s7h7tA7IG35fbwVkou9PM2hANVJNUwcEM4q12fTRDK6y3v6YoEvJ+7bko8wnW/GLsQFXadaJPAEMCpLkhI9ISDLjFkeR1aVUIvdCtyBoMrUTovh0jwk+wpnZWIjANV3e6VVdgbGSsEyyTHO6KMmVtqqs79f9blnVdJmmMIwMyTi6bEtG59+jTU7v1zlsqQ2IKGZILOlr6adh0Aam7zYttvisys+wjyZZXU1y/Srz0nmp1cFgVOJe1BLKQI3SSRrjsqQC0uAEUZy0GX0Rq1AXjvIcYAQ==",
		text:      "2 + 2 = 4",
		usage:     &message.Usage{InputTokens: 43, OutputTokens: 36, ReasoningTokens: 13, CostUSD: f64(0.000669)}},
	{file: "12-openrouter-midstream-error-chunk.txt",
		reasoning: "We need to respond to a greeting. The user",
		// "cost":0 is a known price of zero (a :free model), not an unknown one.
		usage:   &message.Usage{InputTokens: 43, OutputTokens: 10, ReasoningTokens: 11, CostUSD: f64(0)},
		errKind: provider.KindStream,
		// The finish reason "length" arrived before the error; it is kept in the message.
		errMsg: `Token limit reached (after finish_reason "length")`},
	{file: "13-zai-glm-whole-args-no-finish-key.txt", finish: "tool_calls",
		long: &longText{413, "The user wants me to:\n1. Use glob to find all .go files\n2. U", "ust listing operations.\n\nLet me make both calls in parallel."},
		calls: []streamtest.Call{
			{ID: "call_eed4dcc84484436dabda6a0d", Name: "glob", Args: `{"pattern":"**/*.go"}`},
			{ID: "call_f2fe9a4ba66845568e4cbd34", Name: "ls", Args: `{"path":"/tmp/crush-test/TestCoderAgent/zai-glm4.6/parallel_tool_calls"}`},
		},
		usage: &message.Usage{InputTokens: 7146, OutputTokens: 131, CacheReadTokens: 7003, ReasoningTokens: 92}},
	{file: "14-mistral-tool-call-no-index.txt", finish: "tool_calls",
		calls: []streamtest.Call{{ID: "gSIMJiOkT", Name: "weather", Args: `{"location": "San Francisco"}`}},
		usage: &message.Usage{InputTokens: 124, OutputTokens: 22}},
	{file: "15-mistral-magistral-content-array-thinking.txt", finish: "stop",
		reasoning: "The user is asking for 2+2. This is basic arithmetic. 2+2=4.",
		text:      "2 + 2 = 4",
		usage:     &message.Usage{InputTokens: 10, OutputTokens: 46}},
	{file: "16-groq-tool-call-x-groq-usage.txt", finish: "tool_calls",
		calls: []streamtest.Call{{ID: "tk85n1k4m", Name: "weather", Args: `{}`}},
		usage: &message.Usage{InputTokens: 210, OutputTokens: 15}},
	{file: "17-groq-reasoning-channel-midstream-error-event.txt",
		long:    &longText{412, "We need to call the tool with invalid parameters first, then", `name: {}. Then second call with name: "test". Let's do that.`},
		errKind: provider.KindStream,
		errMsg:  "Tool call validation failed: tool call validation failed: parameters for tool get_something_by_name did not match schema: errors: [missing properties: 'name', additionalProperties 'invalid_param' not allowed]"},
	{file: "18-ollama-parallel-tools-all-in-one.txt", finish: "tool_calls",
		calls: []streamtest.Call{
			{ID: "call_wteop8bt", Name: "run_command", Args: `{"command":"ls"}`},
			{ID: "call_rk2xye1l", Name: "run_command", Args: `{"command":"ls -l"}`},
		}},
	{file: "19-vllm-crusoe-usage-chunk.txt", finish: "stop", text: "1, 2, 3, 4, 5",
		usage: &message.Usage{InputTokens: 46, OutputTokens: 14}},
	{file: "20-vllm-reasoning-content.txt", finish: "stop",
		reasoning: "\nOkay, let me try to figure this out..\n",
		text:      "\n\nThe best treatment for this pregnant woman..."},
	{file: "21-llamacpp-timings-length.txt", finish: "length", text: " to the",
		usage: &message.Usage{InputTokens: 12, OutputTokens: 25}},
}

// TestStreamCases replays every Chat Completions fixture and capture byte for byte
// from an httptest server and checks the parse against the header's "expected
// parse".
func TestStreamCases(t *testing.T) {
	for _, tc := range streamCases {
		t.Run(strings.TrimSuffix(tc.file, ".txt"), func(t *testing.T) {
			c := streamcase.Open(t, tc.file)
			if !strings.Contains(c.Header, "expected parse:") {
				t.Fatalf("header of %s has no expected parse", tc.file)
			}
			got := run(t, testProvider(streamtest.SSEServer(t, c.Payload).URL))
			checkCase(t, tc, got)
		})
	}
}

// checkCase compares one stream's result with its expectation.
func checkCase(t *testing.T, tc streamCase, got streamtest.Result) {
	t.Helper()
	if got.Text != tc.text {
		t.Errorf("text = %q, want %q", got.Text, tc.text)
	}
	if tc.long != nil {
		r := got.Reasoning
		if n := utf8.RuneCountInString(r); n != tc.long.runes || !strings.HasPrefix(r, tc.long.start) || !strings.HasSuffix(r, tc.long.end) {
			t.Errorf("reasoning: %d characters, %q ... %q; want %d, %q ... %q",
				n, head(r, 60), tail(r, 60), tc.long.runes, tc.long.start, tc.long.end)
		}
	} else if got.Reasoning != tc.reasoning {
		t.Errorf("reasoning = %q, want %q", got.Reasoning, tc.reasoning)
	}
	var wantSigs []string
	if tc.signature != "" {
		wantSigs = []string{tc.signature}
	}
	if !reflect.DeepEqual(got.Signatures, wantSigs) {
		t.Errorf("signatures = %q, want %q", got.Signatures, wantSigs)
	}
	streamtest.CheckCalls(t, got.Calls, tc.calls)
	switch {
	case tc.usage == nil && got.UsageEvents != 0:
		t.Errorf("got %d usage events, want none", got.UsageEvents)
	case tc.usage != nil && got.UsageEvents != 1:
		t.Errorf("got %d usage events, want 1", got.UsageEvents)
	case tc.usage != nil && !sameUsage(got.Usage, *tc.usage):
		t.Errorf("usage = %s, want %s", fmtUsage(got.Usage), fmtUsage(*tc.usage))
	}
	if got.AfterDone != 0 {
		t.Errorf("%d events after EventDone", got.AfterDone)
	}
	if tc.errKind == "" {
		if got.Err != nil {
			t.Fatalf("unexpected error: %v", got.Err)
		}
		if got.Done != 1 || got.Finish != tc.finish {
			t.Errorf("done = %d with finish %q, want 1 with %q", got.Done, got.Finish, tc.finish)
		}
		if last := got.Events[len(got.Events)-1]; last.Type != provider.EventDone {
			t.Errorf("last event is %v, want EventDone", last.Type)
		}
		return
	}
	if got.Done != 0 {
		t.Errorf("EventDone on a failed stream")
	}
	var perr *provider.Error
	if !errors.As(got.Err, &perr) {
		t.Fatalf("err = %v, want *provider.Error", got.Err)
	}
	if perr.Kind != tc.errKind || perr.Message != tc.errMsg || perr.Status != 0 || perr.Provider != testName {
		t.Errorf("error = %+v, want kind %s, message %q", *perr, tc.errKind, tc.errMsg)
	}
	if strings.ContainsAny(perr.Error(), "\r\n") {
		t.Errorf("error is not one line: %q", perr.Error())
	}
}

func head(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

func tail(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[len(r)-n:])
	}
	return s
}

func fmtUsage(u message.Usage) string {
	cost := "nil"
	if u.CostUSD != nil {
		cost = fmt.Sprint(*u.CostUSD)
	}
	return fmt.Sprintf("{in %d out %d cacheRead %d cacheWrite %d reasoning %d cost %s}",
		u.InputTokens, u.OutputTokens, u.CacheReadTokens, u.CacheWriteTokens, u.ReasoningTokens, cost)
}
