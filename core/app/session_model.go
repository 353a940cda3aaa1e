package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"time"

	"pincer/persist"
)

// SetSessionModel stores model as session id's model (`pincer model switch`),
// holding the session's lease while it re-reads and writes the record, so
// that no running turn is overwritten: a session whose lease another process
// holds is refused ("session ID is running a turn (OWNER): switch after it
// ends") and nothing is written.
func SetSessionModel(ctx context.Context, store persist.Store, id, model string) error {
	owner := fmt.Sprintf("pid:%d/model-switch-%s", os.Getpid(), randomHex())
	ok, holder, err := store.AcquireLease(ctx, id, owner, 10*time.Second)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("session %s is running a turn (%s): switch after it ends", id, holder.Owner)
	}
	defer store.ReleaseLease(context.WithoutCancel(ctx), id, owner)
	s, err := store.GetSession(ctx, id) // re-read under the lease
	if err != nil {
		return err
	}
	s.Model = model
	return store.PutSession(ctx, s)
}

// randomHex is 8 random hex digits.
func randomHex() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
