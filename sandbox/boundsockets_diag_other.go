//go:build !linux

package sandbox

import "errors"

// diagUnixNames: netlink sock_diag is Linux's; elsewhere BoundSockets reads
// ProcNetUnix (absent there too: the OS sandbox needs Linux).
func diagUnixNames() ([]string, error) {
	return nil, errors.New("sock_diag needs Linux")
}
