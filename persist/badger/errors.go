package badger

import (
	"strings"
)

// storeError is an error of the underlying database, shortened for people. Badger's
// messages can embed a hex dump of a key or value; Error keeps only the first line,
// cut to maxErrLen bytes, while Unwrap still reaches the original for errors.Is.
type storeError struct {
	op  string
	msg string
	err error
}

// maxErrLen bounds the database's part of an error message.
const maxErrLen = 160

func (e *storeError) Error() string { return "persist: " + e.op + ": " + e.msg }
func (e *storeError) Unwrap() error { return e.err }

// shortMessage is the first line of err's message, at most maxErrLen bytes.
func shortMessage(err error) string {
	msg := err.Error()
	if i := strings.IndexAny(msg, "\r\n"); i >= 0 {
		msg = msg[:i]
	}
	msg = strings.TrimRight(msg, " :")
	if len(msg) > maxErrLen {
		msg = msg[:maxErrLen] + "…"
	}
	return msg
}
