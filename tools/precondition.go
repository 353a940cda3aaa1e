package tools

import "errors"

// preconditionError marks an error of a file tool's Preview and Run that is a
// precondition of the tool itself, checked identically by both: the file was
// not read yet, changed since it was read, has no (or more than one) match of
// old_string, does not exist, and the like. Its text and errors.Is identity
// are the wrapped error's.
type preconditionError struct{ err error }

func (e preconditionError) Error() string { return e.err.Error() }
func (e preconditionError) Unwrap() error { return e.err }

// precondition marks err (nil stays nil) as a failure of the tool's own
// precondition (CannotSucceed).
func precondition(err error) error {
	if err == nil {
		return nil
	}
	return preconditionError{err}
}

// CannotSucceed reports whether err, from a Previewer's Preview, says the call
// cannot succeed now whatever a person answers: a precondition the tool's Run
// checks the same way failed (not read yet, changed since read, old_string not
// found or not unique, ...). The agent then fails the call with this error as
// its tool result instead of asking. Any other error (the workspace path
// guard, a panic, a preview that could not be shown) is false: the call is
// still asked, so this never turns an ask into an allow.
func CannotSucceed(err error) bool {
	var p preconditionError
	return errors.As(err, &p)
}
