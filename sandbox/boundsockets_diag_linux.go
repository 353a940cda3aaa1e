package sandbox

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/sys/unix"
)

// sock_diag's Unix family (linux/unix_diag.h).
const (
	udiagShowName = 0x1 // UDIAG_SHOW_NAME: ask for each socket's name
	unixDiagName  = 0   // UNIX_DIAG_NAME: the attribute holding the name
	unixDiagReqSz = 24  // struct unix_diag_req
	unixDiagMsgSz = 16  // struct unix_diag_msg
)

// diagUnixNames dumps every Unix socket of pincer's network namespace over
// netlink sock_diag (as ss -x does) and returns the name of each bound one as
// the kernel holds it: the exact bytes of sun_path (newlines included), an
// abstract name with its leading NUL, trailing NULs of a pathname dropped.
// An error when the kernel has no unix_diag or the reply cannot be read.
func diagUnixNames() ([]string, error) {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, unix.NETLINK_SOCK_DIAG)
	if err != nil {
		return nil, fmt.Errorf("sock_diag: %w", err)
	}
	defer unix.Close(fd)
	if err := unix.Bind(fd, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return nil, fmt.Errorf("sock_diag: %w", err)
	}
	req := make([]byte, unix.NLMSG_HDRLEN+unixDiagReqSz)
	le := binary.NativeEndian
	le.PutUint32(req[0:], uint32(len(req)))
	le.PutUint16(req[4:], unix.SOCK_DIAG_BY_FAMILY)
	le.PutUint16(req[6:], unix.NLM_F_REQUEST|unix.NLM_F_DUMP)
	le.PutUint32(req[8:], 1) // sequence
	body := req[unix.NLMSG_HDRLEN:]
	body[0] = unix.AF_UNIX
	le.PutUint32(body[4:], ^uint32(0)) // every state
	le.PutUint32(body[12:], udiagShowName)
	le.PutUint32(body[16:], ^uint32(0)) // no cookie
	le.PutUint32(body[20:], ^uint32(0))
	if err := unix.Sendto(fd, req, 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return nil, fmt.Errorf("sock_diag: %w", err)
	}
	var names []string
	buf := make([]byte, 1<<16)
	for {
		n, _, err := unix.Recvfrom(fd, buf, 0)
		if err != nil {
			return nil, fmt.Errorf("sock_diag: %w", err)
		}
		msgs, err := parseNetlink(buf[:n])
		if err != nil {
			return nil, err
		}
		for _, m := range msgs {
			switch m.typ {
			case unix.NLMSG_DONE:
				return names, nil
			case unix.NLMSG_ERROR:
				if len(m.data) >= 4 {
					if e := int32(le.Uint32(m.data)); e != 0 {
						return nil, fmt.Errorf("sock_diag: %w", unix.Errno(-e))
					}
				}
				return nil, errors.New("sock_diag: an error reply")
			case unix.SOCK_DIAG_BY_FAMILY:
				if name, ok := diagName(m.data); ok {
					names = append(names, name)
				}
			}
		}
	}
}

// netlinkMsg is one message of a netlink reply: its type and payload.
type netlinkMsg struct {
	typ  uint16
	data []byte
}

// parseNetlink splits one datagram of netlink messages (4-byte aligned).
func parseNetlink(b []byte) ([]netlinkMsg, error) {
	var out []netlinkMsg
	le := binary.NativeEndian
	for len(b) >= unix.NLMSG_HDRLEN {
		l := int(le.Uint32(b))
		if l < unix.NLMSG_HDRLEN || l > len(b) {
			return nil, errors.New("sock_diag: a malformed reply")
		}
		out = append(out, netlinkMsg{typ: le.Uint16(b[4:]), data: b[unix.NLMSG_HDRLEN:l]})
		l = (l + 3) &^ 3
		if l > len(b) {
			break
		}
		b = b[l:]
	}
	return out, nil
}

// diagName returns the UNIX_DIAG_NAME attribute of one unix_diag_msg
// payload; ok is false for an unbound socket (no name attribute).
func diagName(b []byte) (string, bool) {
	if len(b) < unixDiagMsgSz {
		return "", false
	}
	le := binary.NativeEndian
	attrs := b[unixDiagMsgSz:]
	for len(attrs) >= 4 {
		l, typ := int(le.Uint16(attrs)), le.Uint16(attrs[2:])
		if l < 4 || l > len(attrs) {
			return "", false
		}
		if typ == unixDiagName {
			name := string(attrs[4:l])
			if name != "" && name[0] != 0 {
				name = strings.TrimRight(name, "\x00")
			}
			return name, name != ""
		}
		l = (l + 3) &^ 3
		if l > len(attrs) {
			break
		}
		attrs = attrs[l:]
	}
	return "", false
}
