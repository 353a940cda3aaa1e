package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"pincer/core/message"
	"pincer/core/provider"
)

// Protocols says which models are talked to with the text protocol
// (textproto.go) and remembers a model switched to it because its provider
// refused tools. core/app backs it with the [models."NAME"] protocol setting
// and a state file under DATA.
type Protocols interface {
	// Text reports whether the model shown as name ("ollama/llama3.2") uses
	// the text protocol.
	Text(name string) bool
	// UseText switches the model to the text protocol for good; the error is
	// the memory's (the switch still holds in this process).
	UseText(name string) error
}

// MemoryProtocols is a Protocols held in memory: the models named at first use
// the text protocol, and UseText adds one. Safe for concurrent use.
type MemoryProtocols struct {
	mu   sync.Mutex
	text map[string]bool
}

// NewMemoryProtocols returns a MemoryProtocols with names on the text
// protocol.
func NewMemoryProtocols(names ...string) *MemoryProtocols {
	m := &MemoryProtocols{text: map[string]bool{}}
	for _, n := range names {
		m.text[n] = true
	}
	return m
}

// Text implements Protocols.
func (m *MemoryProtocols) Text(name string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.text[name]
}

// UseText implements Protocols; it never fails.
func (m *MemoryProtocols) UseText(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.text[name] = true
	return nil
}

// toolsRefusedForms are the phrases of the errors with which OpenAI-compatible
// servers refuse a request that carries tools for a model without function
// calling: Ollama ("registry.ollama.ai/library/gemma2:2b does not support
// tools"), vLLM without a tool parser, llama.cpp's server without --jinja, and
// the wordings of hosted gateways. Matched lowercased.
var toolsRefusedForms = []string{
	"does not support tools",
	"does not support tool",
	"doesn't support tools",
	"tools are not supported",
	"tools is not supported",
	"tool use is not supported",
	"tool calling is not supported",
	"tool calls are not supported",
	"function calling is not supported",
	"does not support function calling",
	"doesn't support function calling",
	"tool choice requires --enable-auto-tool-choice",
	"tools param requires --jinja",
	"no endpoints found that support tool use",
}

// toolsRefused reports whether err is a provider's refusal of the tools of a
// request (a 4xx naming one of toolsRefusedForms): the model has no function
// calling, and the text protocol is its way to work.
func toolsRefused(err error) bool {
	var pe *provider.Error
	if !errors.As(err, &pe) || pe.Status < 400 || pe.Status >= 500 {
		return false
	}
	msg := strings.ToLower(pe.Message)
	for _, f := range toolsRefusedForms {
		if strings.Contains(msg, f) {
			return true
		}
	}
	return false
}

// textProtocol reports whether the next model call uses the text protocol.
func (a *Agent) textProtocol() bool {
	return a.cfg.Protocols != nil && a.cfg.Protocols.Text(a.modelName())
}

// switchToText is the answer to a provider that refused the tools of a call
// (refusal, toolsRefused): it says so once (a notice), switches the model to
// the text protocol for good (Protocols.UseText) and makes the call again.
func (t *turn) switchToText(ctx, bg context.Context, refusal error) ([]message.Part, error) {
	name := t.a.modelName()
	msg := fmt.Sprintf("%s does not support tools (%v): switched it to the text protocol (it answers with command: or text: lines; its commands run as Bash calls)", name, refusal)
	err := t.a.cfg.Protocols.UseText(name)
	if !t.a.textProtocol() { // the configuration pins function calling: the refusal stands
		t.notice(bg, "warning", "protocol", fmt.Sprintf("%s does not support tools (%v), and it is not switched to the text protocol: %v", name, refusal, err))
		return nil, refusal
	}
	if err != nil {
		msg += "; the switch holds for this run only: " + err.Error()
	} else {
		msg += "; remembered for this model"
	}
	t.notice(bg, "warning", "protocol", msg)
	return t.callModel(ctx, bg)
}
