//go:build !unix

package web

import "os"

// tryLock takes no lock where flock(2) is missing: one server per
// PINCER_HOME is not enforced there.
func tryLock(*os.File) (bool, error) { return true, nil }

// unlock does nothing (tryLock took nothing).
func unlock(*os.File) {}
