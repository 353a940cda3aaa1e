// Package record is the record layer the stores under persist/ share: the key
// layout (keys.go, audit.go), how each record is checked and encoded (the
// stores keep the same JSON, so Memory hands out exactly the values Badger
// does), the lease rules, parallel decoding of long lists, and the notifier
// that wakes WaitEvents. It holds no store: persist/badger, persist/memory and
// persist/remote import it so that every implementation keeps one contract by
// one code, not by copies.
package record
