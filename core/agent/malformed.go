package agent

import (
	"context"
	"errors"

	"pincer/core/message"
	"pincer/core/provider"
)

// isMalformedCall reports whether err is a provider's report that the model's tool
// call could not be parsed (Gemini's MALFORMED_FUNCTION_CALL).
func isMalformedCall(err error) bool {
	var pe *provider.Error
	return errors.As(err, &pe) && pe.Kind == provider.KindMalformedCall
}

// retryMalformed sends a model call again, once, when it ended with a malformed tool
// call: such a failure is the sampling's, not the request's, and a second call
// usually gives a well-formed one. The retry is announced as a warning notice
// (source "malformed_call"); a second malformed call ends the turn with the error.
// calls and err are the first call's results, returned unchanged when no retry is
// due.
func (t *turn) retryMalformed(ctx, bg context.Context, calls []message.Part, err error) ([]message.Part, error) {
	if !isMalformedCall(err) || ctx.Err() != nil {
		return calls, err
	}
	t.notice(bg, "warning", "malformed_call", err.Error()+"; sending the request again (once)")
	return t.callModel(ctx, bg)
}
