// Package remote is the store daemon's wire: Client is a persist.Store whose
// every method is one request over a Unix socket (HTTP/1.1, `POST /v1/<Method>`,
// protocol header both ways, token and peer uid checked), and Server answers
// those requests from another Store through a table of method -> handler. A
// call that loses its connection is sent again marked as a retry, which the
// Server answers idempotently; when a client's Attach connection ends, the
// Server closes the turn that client left running (event.CloseTurn) and
// releases its leases. Errors keep their persist sentinels across the wire.
package remote
