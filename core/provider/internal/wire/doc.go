// Package wire holds the plumbing that pincer's wire adapters (anthropic, gemini,
// openai, responses) share: retries with backoff that honour a server's wait hints,
// the stall watchdog that fails a silent stream, one-line classification of error
// bodies, the HTTP exchange of the adapters that speak plain net/http, and the split
// of a system prompt into its static and dynamic parts.
//
// The rules every adapter keeps with these helpers:
//   - a request is retried after HTTP 429, 5xx or a connection failure, only while
//     nothing has been yielded to the consumer;
//   - a server's wait hint replaces the computed backoff, and a hint longer than
//     MaxServerDelay means "do not retry";
//   - errors are *provider.Error values whose message is one line; the caller's
//     context ending yields ctx.Err() itself.
package wire
