//go:build !linux

package persist

import "net"

// peerUID cannot tell the peer's uid on this system; the token still holds.
func peerUID(net.Conn) (int, bool) { return -1, false }
