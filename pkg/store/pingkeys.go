package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// Keys proven on their host (migration 0008): the daily cap of a host is
// counted apart for submissions whose key has matched there before, so
// submissions with made-up keys cannot use up the owner's.

// keyDigest is how a key is kept: IndexNow keys are public, but a digest
// is all the cap needs, and nothing more should be kept than is needed.
func keyDigest(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// RecordProvenKey records that key's file matched on host: from now on the
// host's submissions with this key draw on the proven part of its cap.
func (s *Store) RecordProvenKey(ctx context.Context, host, key string) error {
	_, err := s.write.Exec(ctx, `
		INSERT INTO ping_keys (host, key_sha256, verified_at) VALUES ($1, $2, COALESCE($3::timestamptz, now()))
		ON CONFLICT (host, key_sha256) DO NOTHING`, host, keyDigest(key), s.clock())
	if err != nil {
		return fmt.Errorf("store: record proven key of %s: %w", host, err)
	}
	return nil
}
