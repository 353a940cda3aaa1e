package agent

import (
	"encoding/json"
	"strings"

	"pincer/core/message"
)

// The text protocol, for models without function calling (the xclaw agent
// loop): no tools are offered on the wire; the system prompt asks the model to
// answer with one `command: <shell>` line, which pincer runs as a Bash tool
// call through the same pipeline as any other (permission, hooks with
// tool_name Bash, sandbox, approvals, audit, events), sending its output back
// as the next user message, or with `text: <answer>`, which ends the turn.

// textCallPrefix starts the ToolCallID of a Bash call read from a text-protocol
// answer: the view knows its command is already in the assistant's text.
const textCallPrefix = "text_"

// textProtocolPrompt is appended to the system message of a text-protocol
// call.
const textProtocolPrompt = `# Protocol (no function calling)
Tools are not available to you as functions in this conversation. Instead, answer in exactly one of two forms:

command: <one shell command>
    to run a shell command (bash) in the working directory. Its output comes back as the next user message,
    starting with "command output". Run one command per answer; a multi-line command may follow on the
    lines after "command:" in a fenced code block.

text: <your answer>
    to give your final answer to the user; this ends your turn.

Start the answer with "command:" or "text:". Anything before that line is your private reasoning.
Use the shell for everything the tools above would do: cat/sed -n to read files, grep/rg to search,
and heredocs or sed/patch to write files.`

// malformedRetries is how many corrective messages a turn sends after answers
// in neither form before it takes the answer as the final text.
const malformedRetries = 2

// malformedMessage is the corrective user message after an answer in neither
// form.
const malformedMessage = "Your answer did not start with \"command:\" or \"text:\". " +
	"Answer with one line \"command: <shell command>\" to run a command, or \"text: <answer>\" to give your final answer."

// textReplyKind is what a text-protocol answer asks for.
type textReplyKind int

const (
	replyMalformed textReplyKind = iota // neither form
	replyCommand                        // command: <shell>
	replyText                           // text: <answer>
)

// textReply is a parsed text-protocol answer.
type textReply struct {
	kind textReplyKind
	body string // the command or the answer, trimmed
	lead string // a text answer's private reasoning: the lines before its "text:" line, trimmed
}

// parseTextReply reads a text-protocol answer: the first line that starts
// (after spaces, list markers or bold markers, case-insensitively) with
// "command:" or "text:" decides. A command is the rest of its line; when that
// is empty or opens a code fence, the following fenced block (or the rest of
// the answer) is the command. A text answer is everything after "text:". An
// answer whose "command:" holds nothing is malformed.
func parseTextReply(s string) textReply {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, line := range lines {
		l := strings.TrimLeft(line, " \t>*-`")
		low := strings.ToLower(l)
		switch {
		case strings.HasPrefix(low, "command:"):
			rest := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(l[len("command:"):]), "**"))
			if strings.HasPrefix(rest, "```") { // a fence opened on the command line
				inner := strings.TrimPrefix(rest, "```")
				if strings.HasSuffix(inner, "```") && len(inner) >= 3 { // ```ls -la``` on one line
					rest = strings.TrimSpace(strings.TrimSuffix(inner, "```"))
				} else {
					rest = "" // ```bash: the command is the block below
					lines = append([]string{"```"}, lines[i+1:]...)
					i = -1
				}
			} else {
				rest = strings.TrimSpace(strings.Trim(rest, "`"))
			}
			if rest != "" {
				return textReply{kind: replyCommand, body: rest}
			}
			if cmd := fencedOrRest(lines[i+1:]); cmd != "" {
				return textReply{kind: replyCommand, body: cmd}
			}
			return textReply{kind: replyMalformed}
		case strings.HasPrefix(low, "text:"):
			body := strings.TrimPrefix(strings.TrimSpace(l[len("text:"):]), "**") // **text:** closes its bold
			if i+1 < len(lines) {
				body += "\n" + strings.Join(lines[i+1:], "\n")
			}
			lead := strings.TrimSpace(strings.Join(lines[:i], "\n"))
			return textReply{kind: replyText, body: strings.TrimSpace(body), lead: lead}
		}
	}
	return textReply{kind: replyMalformed}
}

// fencedOrRest returns the body of the first fenced block of lines (``` ...
// ```), or, with no fence, the lines up to a "text:" line, trimmed.
func fencedOrRest(lines []string) string {
	var out []string
	in := false
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") {
			if in {
				break
			}
			in = true
			continue
		}
		if !in && strings.HasPrefix(strings.ToLower(t), "text:") {
			break
		}
		out = append(out, l)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// textBashCall is the Bash tool call of a text-protocol command.
func textBashCall(command string) message.Part {
	in, _ := json.Marshal(map[string]string{"command": command})
	return message.Part{Type: message.PartToolCall, ToolCallID: textCallPrefix + newID(), ToolName: "Bash", Input: string(in)}
}

// textView is the provider view of a text-protocol call: the system message
// gets the protocol's explanation; an assistant message is its text (the
// commands it gave are in it), with any tool call of the function-calling
// protocol (a model switched mid-session) written out as a line; tool results
// become user messages ("command output:" for a command), consecutive ones
// merged into one. Reasoning is left out. The input is not changed.
func textView(view []message.Message) []message.Message {
	out := make([]message.Message, 0, len(view)+1)
	hasSystem := false
	var pending []string // tool results waiting to be sent as one user message
	flush := func() {
		if len(pending) > 0 {
			out = append(out, message.NewText(message.RoleUser, strings.Join(pending, "\n\n")))
			pending = nil
		}
	}
	for _, m := range view {
		switch m.Role {
		case message.RoleSystem:
			hasSystem = true
			out = append(out, message.NewText(message.RoleSystem, m.Text()+"\n\n"+textProtocolPrompt))
		case message.RoleTool:
			r, _ := m.ToolResult()
			pending = append(pending, textResult(r))
		case message.RoleAssistant:
			flush()
			var b strings.Builder
			b.WriteString(m.Text())
			for _, c := range m.ToolCalls() {
				if strings.HasPrefix(c.ToolCallID, textCallPrefix) {
					continue
				}
				if b.Len() > 0 {
					b.WriteString("\n")
				}
				b.WriteString(callLine(c))
			}
			if strings.TrimSpace(b.String()) == "" {
				continue
			}
			out = append(out, message.NewText(message.RoleAssistant, b.String()))
		default:
			flush()
			out = append(out, m)
		}
	}
	flush()
	if !hasSystem {
		out = append([]message.Message{message.NewText(message.RoleSystem, textProtocolPrompt)}, out...)
	}
	return out
}

// callLine writes a function-calling tool call as the text protocol would
// have: a Bash call as its command line, another tool as a note.
func callLine(c message.Part) string {
	if c.ToolName == "Bash" {
		var in struct {
			Command string `json:"command"`
		}
		if json.Unmarshal([]byte(c.Input), &in) == nil && in.Command != "" {
			return "command: " + in.Command
		}
	}
	return "(called the tool " + c.ToolName + " with " + c.Input + ")"
}

// textResult is a tool result as the text protocol's user message says it.
func textResult(r message.Part) string {
	head := "command output:"
	if !strings.HasPrefix(r.ToolCallID, textCallPrefix) {
		head = "result of the tool " + r.ToolName + ":"
	}
	if r.IsError {
		head = strings.TrimSuffix(head, ":") + " (failed):"
	}
	if strings.TrimSpace(r.Text) == "" {
		return head + "\n(no output)"
	}
	return head + "\n" + r.Text
}

// joinReasoning appends a text-protocol answer's lead (the reasoning written
// before its "text:" line) to the message's own reasoning, a blank line
// between them when both are there.
func joinReasoning(reasoning, lead string) string {
	switch {
	case lead == "":
		return reasoning
	case reasoning == "":
		return lead
	}
	return reasoning + "\n\n" + lead
}
