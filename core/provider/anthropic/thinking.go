package anthropic

import "strings"

// redactedPrefix marks a reasoning part's Signature that holds the encrypted data of a
// redacted_thinking block rather than a thinking block's signature. message.Part has
// no field of its own for it, and the block must go back to Anthropic unchanged in the
// tool loop, like a signed thinking block.
const redactedPrefix = "redacted_thinking:"

// redactedSignature encodes a redacted_thinking block's data as a Signature.
func redactedSignature(data string) string { return redactedPrefix + data }

// redactedData decodes a Signature made by redactedSignature.
func redactedData(signature string) (string, bool) {
	data, ok := strings.CutPrefix(signature, redactedPrefix)
	return data, ok && data != ""
}
