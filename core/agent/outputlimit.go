package agent

// StopMaxTokens is the turn's stop reason (TurnResult.StopReason, turn.completed)
// when its last answer was cut off by the output token limit, whatever the
// provider called it: the one value a script checks, as Anthropic's stop_reason.
const StopMaxTokens = "max_tokens"

// isOutputLimit reports whether a provider's finish reason says the output token
// limit cut the answer: Chat Completions' "length", Anthropic's "max_tokens",
// Gemini's "MAX_TOKENS", Responses' incomplete reason "max_output_tokens".
func isOutputLimit(finish string) bool {
	switch finish {
	case "length", "max_tokens", "MAX_TOKENS", "max_output_tokens":
		return true
	}
	return false
}

// outputLimitNotice is the warning shown when an answer without tool calls was cut
// off by the output token limit (a cut tool call is answered to the model instead).
const outputLimitNotice = "the answer was cut off by the output token limit; raise max_tokens or ask the model to continue"
