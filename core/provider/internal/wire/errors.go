package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"pincer/core/provider"
)

// ErrorInfo is what a provider's error body says, whatever its dialect.
type ErrorInfo struct {
	Message string
	Type    string // "invalid_request_error", "overloaded_error", Google's "RESOURCE_EXHAUSTED", ...
	Code    string // string codes as is, numeric codes as digits
	Status  int    // a numeric "code" or "status_code" in the body
	Reason  string // Google's details[].reason ("API_KEY_INVALID"), when present
	// RetryDelay is Google's RetryInfo details[].retryDelay ("39s"), when present.
	RetryDelay string
}

// ParseErrorBody extracts an ErrorInfo from a JSON error body. It understands
//   - {"type": "error", "error": {"type", "message"}}                    Anthropic
//   - {"error": {"message", "type", "code", "param"}}                    OpenAI, DeepSeek, Groq
//   - {"error": {"code": 400, "message", "status", "details": [...]}}    Google
//   - [{"error": {...}}]                                                 Google's streams and compat API
//   - {"type": "error", "code", "message"}                               Responses events
//   - {"error": {"code": 429, "message", "metadata": {"raw"}}}           OpenRouter: the
//     upstream's own words are in metadata.raw and win over "Provider returned error"
//   - {"error": "text"}                                                  Ollama, llama.cpp
//   - {"message" | "detail": ..., "type", "code"}                        vLLM, FastAPI servers
//
// ok is false when body is not JSON; the Content-Type is never consulted (DeepSeek
// serves error JSON as application/octet-stream, case 39).
func ParseErrorBody(body []byte) (info ErrorInfo, ok bool) {
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		var arr []json.RawMessage
		if json.Unmarshal(body, &arr) != nil || len(arr) == 0 {
			return ErrorInfo{}, false
		}
		body = arr[0]
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return ErrorInfo{}, false
	}
	if raw, ok := top["error"]; ok && !IsNull(raw) {
		return ParseErrorValue(raw), true
	}
	info = parseErrorObject(top)
	if info.Type == "error" {
		info.Type = "" // the envelope's own "type", not a classification
	}
	return info, true
}

// ParseErrorValue decodes the value of an "error" key: a string or an object.
func ParseErrorValue(raw json.RawMessage) ErrorInfo {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return ErrorInfo{Message: s}
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return ErrorInfo{Message: string(raw)}
	}
	return parseErrorObject(obj)
}

// parseErrorObject decodes the fields of one error object.
func parseErrorObject(obj map[string]json.RawMessage) ErrorInfo {
	info := ErrorInfo{Message: JSONString(obj["message"]), Type: JSONString(obj["type"])}
	if info.Message == "" {
		info.Message = JSONString(obj["detail"])
	}
	if info.Type == "" {
		info.Type = JSONString(obj["status"]) // Google: "INVALID_ARGUMENT", ...
	}
	if c := obj["code"]; !IsNull(c) {
		if n, err := strconv.Atoi(string(c)); err == nil {
			info.Code, info.Status = string(c), n
		} else {
			info.Code = JSONString(c)
		}
	}
	if n, err := strconv.Atoi(string(obj["status_code"])); err == nil {
		info.Status = n
	}
	var details []struct {
		Reason     string `json:"reason"`
		RetryDelay string `json:"retryDelay"`
	}
	if json.Unmarshal(obj["details"], &details) == nil {
		for _, d := range details {
			if info.Reason == "" {
				info.Reason = d.Reason
			}
			if info.RetryDelay == "" {
				info.RetryDelay = d.RetryDelay
			}
		}
	}
	if upstream := metadataRaw(obj["metadata"]); upstream != "" {
		info.Message = upstream
	}
	return info
}

// metadataRaw returns OpenRouter's error.metadata.raw: the upstream provider's error,
// itself sometimes a JSON error document (then its message is taken).
func metadataRaw(meta json.RawMessage) string {
	var m struct {
		Raw json.RawMessage `json:"raw"`
	}
	if IsNull(meta) || json.Unmarshal(meta, &m) != nil || IsNull(m.Raw) {
		return ""
	}
	text := []byte(JSONString(m.Raw))
	if len(text) == 0 {
		text = m.Raw // an object rather than a string
	}
	if inner, ok := ParseErrorBody(text); ok && inner.Message != "" {
		return inner.Message
	}
	return string(text)
}

// HTTPError turns a non-2xx response into a *provider.Error: the kind from the status
// (refined by the body), the provider's own message, or the body's first 200
// characters when it says nothing parseable.
func HTTPError(name string, status int, body []byte) (*provider.Error, ErrorInfo) {
	info, _ := ParseErrorBody(body)
	msg := OneLine(info.Message)
	if msg == "" {
		msg = Truncate(OneLine(string(body)), 200)
	}
	if msg == "" {
		msg = http.StatusText(status)
	}
	return &provider.Error{Provider: name, Kind: StatusKind(status, info), Status: status, Message: msg}, info
}

// StatusKind classifies an HTTP error status, refined by the body: a spent quota
// ("insufficient_quota") is billing, not a rate limit; a 4xx that speaks of the
// context length is KindContextLength (Anthropic case 31).
func StatusKind(status int, info ErrorInfo) provider.Kind {
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return provider.KindAuth
	case status == http.StatusPaymentRequired || IsQuota(info):
		return provider.KindBilling
	case status == http.StatusNotFound:
		return provider.KindNotFound
	case status == http.StatusTooManyRequests:
		return provider.KindRateLimit
	case status >= 400 && status < 500:
		if IsContextLength(info) {
			return provider.KindContextLength
		}
		return provider.KindBadRequest
	}
	return provider.KindServer
}

// InStreamKind classifies an error that arrived inside a 200 stream (Anthropic's
// "event: error", the Responses API's "error" event, a Gemini chunk holding "error",
// a Chat Completions {"error":...} chunk or "event: error" frame). Only what the
// caller can act on is singled out; anything else is KindStream.
func InStreamKind(info ErrorInfo) provider.Kind {
	tc := strings.ToLower(info.Type + " " + info.Code)
	switch {
	case IsQuota(info) || info.Status == http.StatusPaymentRequired || strings.Contains(tc, "billing"):
		return provider.KindBilling
	case info.Status == http.StatusTooManyRequests || strings.Contains(tc, "rate_limit") ||
		strings.Contains(tc, "resource_exhausted"):
		return provider.KindRateLimit
	case info.Status == http.StatusUnauthorized || info.Status == http.StatusForbidden ||
		strings.Contains(tc, "authentication") || strings.Contains(tc, "permission") ||
		strings.Contains(tc, "unauthenticated"):
		return provider.KindAuth
	case IsContextLength(info):
		return provider.KindContextLength
	case info.Status >= 500 || strings.Contains(tc, "server_error") || strings.Contains(tc, "overloaded") ||
		strings.Contains(tc, "api_error") || strings.Contains(tc, "unavailable") || strings.Contains(tc, "internal"):
		return provider.KindServer
	}
	return provider.KindStream
}

// IsQuota reports OpenAI's "insufficient_quota" (sent with HTTP 429, and in-band on
// the Responses API, case 06).
func IsQuota(info ErrorInfo) bool {
	return info.Code == "insufficient_quota" || info.Type == "insufficient_quota"
}

// contextWords are phrases that mark a too-long prompt across servers: OpenAI, vLLM
// and DeepSeek ("maximum context length", "context_length_exceeded"), Anthropic
// ("prompt is too long"), Gemini ("input token count ... exceeds the maximum"),
// llama.cpp ("exceeds the available context size"), Mistral and others ("context
// window").
var contextWords = []string{
	"context_length", "context length", "maximum context", "context window",
	"context size", "prompt is too long", "exceed_context", "input token count",
}

// IsContextLength reports whether an error says the request is too long for the model.
func IsContextLength(info ErrorInfo) bool {
	s := strings.ToLower(info.Code + " " + info.Type + " " + info.Message)
	for _, w := range contextWords {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// StreamError builds the error for an error reported inside a 200 stream: one line,
// classified by InStreamKind, "unknown error" when the server said nothing.
func StreamError(name string, info ErrorInfo) *provider.Error {
	msg := OneLine(info.Message)
	if msg == "" {
		msg = "unknown error"
	}
	return &provider.Error{Provider: name, Kind: InStreamKind(info), Message: msg}
}

// Redact removes key from a provider error's message: some providers echo the key
// they were sent, and errors reach events and the terminal (invariant 6).
func Redact(err error, key string) error {
	var pe *provider.Error
	if key == "" || !errors.As(err, &pe) || !strings.Contains(pe.Message, key) {
		return err
	}
	c := *pe
	c.Message = strings.ReplaceAll(c.Message, key, "[redacted]")
	return &c
}

// JSONString decodes raw as a JSON string, or returns "".
func JSONString(raw json.RawMessage) string {
	var s string
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// IsNull reports an absent or JSON null value.
func IsNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

// OneLine joins the lines of s with spaces and trims it, so that an error fits one
// terminal line.
func OneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return strings.TrimSpace(s)
	}
	return strings.Join(strings.Fields(s), " ")
}

// Truncate shortens s to at most n runes, marking the cut with "…".
func Truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
