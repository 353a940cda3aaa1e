package record

import (
	"fmt"
)

// Key layout of checkpoints and their blobs (persist.CheckpointStore):
//
//	c/<sessionID>/<seq>   one checkpoint (JSON persist.Checkpoint), seq 8 bytes
//	b/<hash>              one blob (the caller's bytes, compressed by it)
const (
	KindCheckpoint = 'c' // one checkpoint of a session
	KindBlob       = 'b' // one content-addressed blob
)

// BlobPrefix is the prefix of every blob key.
var BlobPrefix = []byte{KindBlob, '/'}

// CheckpointPrefix is the prefix of every checkpoint key.
var CheckpointPrefix = []byte{KindCheckpoint, '/'}

// CheckBlobHash refuses a blob hash that is not 64 lowercase hex digits.
func CheckBlobHash(hash string) error {
	ok := len(hash) == 64
	for i := 0; ok && i < len(hash); i++ {
		c := hash[i]
		ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')
	}
	if !ok {
		return fmt.Errorf("persist: invalid blob hash %q (not 64 lowercase hex digits)", hash)
	}
	return nil
}

// BlobKey is the key of the blob of hash.
func BlobKey(hash string) []byte { return SimpleKey(KindBlob, hash) }
