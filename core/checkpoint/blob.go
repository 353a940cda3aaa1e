package checkpoint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"

	"pincer/persist"
)

// The zstd coder, shared (EncodeAll and DecodeAll are safe for concurrent use).
var (
	coderOnce sync.Once
	encoder   *zstd.Encoder
	decoder   *zstd.Decoder
)

func coder() (*zstd.Encoder, *zstd.Decoder) {
	coderOnce.Do(func() {
		encoder, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1))
		decoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	})
	return encoder, decoder
}

// Hash is the blob hash of content: its SHA-256, lowercase hex.
func Hash(content []byte) string {
	sum := sha256.Sum256(content)
	return hex.EncodeToString(sum[:])
}

// putBlob stores content (compressed) under its hash and returns the hash and
// the stored size.
func putBlob(ctx context.Context, s persist.CheckpointStore, content []byte) (string, int64, error) {
	enc, _ := coder()
	h := Hash(content)
	data := enc.EncodeAll(content, nil)
	if err := s.PutBlob(ctx, h, data); err != nil {
		return "", 0, err
	}
	return h, int64(len(data)), nil
}

// Blob returns the content of the blob of hash, checked against the hash.
func Blob(ctx context.Context, s persist.CheckpointStore, hash string) ([]byte, error) {
	data, err := s.GetBlob(ctx, hash)
	if err != nil {
		return nil, err
	}
	_, dec := coder()
	content, err := dec.DecodeAll(data, nil)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: blob %s: %w", hash, err)
	}
	if Hash(content) != hash {
		return nil, fmt.Errorf("checkpoint: blob %s does not hold the content of its hash", hash)
	}
	return content, nil
}
