package openai

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"pincer/core/provider"
)

// errorInfo is what a provider's error body says, whatever its dialect.
type errorInfo struct {
	Message string
	Type    string // "invalid_request_error", "rate_limit_error", "tokens", ...
	Code    string // string codes as is, numeric codes (OpenRouter's 429) as digits
	Status  int    // "status_code" in the body (Groq), or a numeric code (OpenRouter)
}

// parseErrorBody extracts an errorInfo from a JSON error body. It understands
//   - {"error": {"message", "type", "code", "param"}}            OpenAI, DeepSeek, Groq
//   - {"type": "error", "error": {"type", "message"}}            Anthropic
//   - {"error": {"code": 429, "message", "metadata": {"raw"}}}   OpenRouter: the
//     upstream's own words are in metadata.raw and win over "Provider returned error"
//   - {"error": "text"}                                          Ollama, llama.cpp
//   - {"message" | "detail": ..., "type", "code"}                vLLM, FastAPI servers
//   - [{"error": {...}}]                                         Google's compat API
//
// ok is false when body is not JSON; the Content-Type is never consulted (DeepSeek
// serves error JSON as application/octet-stream, case 39).
func parseErrorBody(body []byte) (info errorInfo, ok bool) {
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		var arr []json.RawMessage
		if json.Unmarshal(body, &arr) != nil || len(arr) == 0 {
			return errorInfo{}, false
		}
		body = arr[0]
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return errorInfo{}, false
	}
	if raw, ok := top["error"]; ok && !isNull(raw) {
		return parseErrorValue(raw), true
	}
	return parseErrorObject(top), true
}

// parseErrorValue decodes the value of an "error" key: a string or an object.
func parseErrorValue(raw json.RawMessage) errorInfo {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return errorInfo{Message: s}
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return errorInfo{Message: string(raw)}
	}
	return parseErrorObject(obj)
}

// parseErrorObject decodes the fields of one error object.
func parseErrorObject(obj map[string]json.RawMessage) errorInfo {
	info := errorInfo{
		Message: jsonString(obj["message"]),
		Type:    jsonString(obj["type"]),
	}
	if info.Message == "" {
		info.Message = jsonString(obj["detail"])
	}
	if c := obj["code"]; !isNull(c) {
		if n, err := strconv.Atoi(string(c)); err == nil {
			info.Code, info.Status = string(c), n
		} else {
			info.Code = jsonString(c)
		}
	}
	if n, err := strconv.Atoi(string(obj["status_code"])); err == nil {
		info.Status = n
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
	if isNull(meta) || json.Unmarshal(meta, &m) != nil || isNull(m.Raw) {
		return ""
	}
	text := []byte(jsonString(m.Raw))
	if len(text) == 0 {
		text = m.Raw // an object rather than a string
	}
	if inner, ok := parseErrorBody(text); ok && inner.Message != "" {
		return inner.Message
	}
	return string(text)
}

// httpError turns a non-2xx response into a *provider.Error: the kind from the status
// (refined by the body), the provider's own message, or the body's first 200
// characters when it says nothing parseable.
func (p *Provider) httpError(status int, body []byte) *provider.Error {
	info, _ := parseErrorBody(body)
	msg := oneLine(info.Message)
	if msg == "" {
		msg = truncate(oneLine(string(body)), 200)
	}
	if msg == "" {
		msg = http.StatusText(status)
	}
	return &provider.Error{Provider: p.name, Kind: statusKind(status, info), Status: status, Message: msg}
}

// statusKind classifies an HTTP error status, refined by the body: a 429 that is a
// spent quota ("insufficient_quota", OpenAI) is billing, not a rate limit; a 4xx that
// speaks of the context length is KindContextLength (case 31, 35).
func statusKind(status int, info errorInfo) provider.Kind {
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return provider.KindAuth
	case status == http.StatusPaymentRequired || isQuota(info):
		return provider.KindBilling
	case status == http.StatusNotFound:
		return provider.KindNotFound
	case status == http.StatusTooManyRequests:
		return provider.KindRateLimit
	case status >= 400 && status < 500:
		if isContextLength(info) {
			return provider.KindContextLength
		}
		return provider.KindBadRequest
	}
	return provider.KindServer
}

// inStreamKind classifies an error that arrived inside a 200 stream (an in-band
// {"error":...} chunk, case 12, or an "event: error" frame, case 17). Only what the
// caller can act on is singled out; anything else is KindStream.
func inStreamKind(info errorInfo) provider.Kind {
	tc := strings.ToLower(info.Type + " " + info.Code)
	switch {
	case isQuota(info) || info.Status == http.StatusPaymentRequired:
		return provider.KindBilling
	case info.Status == http.StatusTooManyRequests || strings.Contains(tc, "rate_limit"):
		return provider.KindRateLimit
	case info.Status == http.StatusUnauthorized || info.Status == http.StatusForbidden ||
		strings.Contains(tc, "authentication") || strings.Contains(tc, "permission"):
		return provider.KindAuth
	case isContextLength(info):
		return provider.KindContextLength
	case info.Status >= 500 || strings.Contains(tc, "server_error") || strings.Contains(tc, "overloaded") ||
		strings.Contains(tc, "api_error"):
		return provider.KindServer
	}
	return provider.KindStream
}

// isQuota reports OpenAI's "insufficient_quota" (sent with HTTP 429, and in-band on
// the Responses API).
func isQuota(info errorInfo) bool {
	return info.Code == "insufficient_quota" || info.Type == "insufficient_quota"
}

// contextWords are phrases that mark a too-long prompt across servers: OpenAI/vLLM/
// DeepSeek ("maximum context length"), Anthropic ("prompt is too long"), llama.cpp
// ("exceeds the available context size"), Mistral and others ("context window").
var contextWords = []string{
	"context_length", "context length", "maximum context", "context window",
	"context size", "prompt is too long", "exceed_context",
}

// isContextLength reports whether an error says the request is too long for the model.
func isContextLength(info errorInfo) bool {
	s := strings.ToLower(info.Code + " " + info.Type + " " + info.Message)
	for _, w := range contextWords {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// jsonString decodes raw as a JSON string, or returns "".
func jsonString(raw json.RawMessage) string {
	var s string
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// isNull reports an absent or JSON null value.
func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

// oneLine joins the lines of s with spaces and trims it, so that an error fits one
// terminal line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return strings.TrimSpace(s)
	}
	return strings.Join(strings.Fields(s), " ")
}

// truncate shortens s to at most n runes, marking the cut with "…".
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
