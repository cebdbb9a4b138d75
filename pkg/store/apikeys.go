package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// LiveKeyLimit is the most live API keys an identity may hold in one
// product (contract 5, rule 3; section 8).
const LiveKeyLimit = 10

// KeyUseInterval is how often a key's last use is written at most.
const KeyUseInterval = time.Hour

var (
	// ErrKeyLimit is returned when a key would be the identity's eleventh live key.
	ErrKeyLimit = errors.New("store: live key limit reached")
	// ErrKeyNotFound is returned for a key that does not exist or is not the caller's.
	ErrKeyNotFound = errors.New("store: key not found")
)

// APIKey is a stored API key: never its secret, only the SHA-256 of the
// whole key, which the store uses to find it.
type APIKey struct {
	ID             string
	IdentityID     string
	Product        string
	OrganizationID *string // nil: an account key
	Name           string
	Last4          string
	CreatedAt      time.Time
	LastUsedAt     *time.Time
	RevokedAt      *time.Time
	StoppedAt      *time.Time // a password change or "end all sessions" at the house
}

// Active reports whether the key still authenticates.
func (k APIKey) Active() bool { return k.RevokedAt == nil && k.StoppedAt == nil }

// NewAPIKey is a key to create.
type NewAPIKey struct {
	IdentityID     string
	Product        string
	OrganizationID *string
	Name           string
	SecretHash     []byte // SHA-256 of the whole key
	Last4          string
}

const apiKeyColumns = `id::text, identity_id, product, organization_id, name, last4, created_at, last_used_at, revoked_at, stopped_at`

func scanAPIKey(row pgx.Row) (APIKey, error) {
	var k APIKey
	err := row.Scan(&k.ID, &k.IdentityID, &k.Product, &k.OrganizationID, &k.Name, &k.Last4,
		&k.CreatedAt, &k.LastUsedAt, &k.RevokedAt, &k.StoppedAt)
	return k, err
}

// CreateAPIKey stores a new key unless the identity already holds
// LiveKeyLimit live keys in the product (ErrKeyLimit). The count is exact
// under concurrent creates: the identity's profile row is locked first, so
// creates of one identity run one after the other, and the insert is
// conditional on the count its statement sees.
func (s *Store) CreateAPIKey(ctx context.Context, in NewAPIKey) (APIKey, error) {
	var k APIKey
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO account_profiles (identity_id) VALUES ($1) ON CONFLICT DO NOTHING`, in.IdentityID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `SELECT 1 FROM account_profiles WHERE identity_id = $1 FOR UPDATE`, in.IdentityID); err != nil {
			return err
		}
		var err error
		k, err = scanAPIKey(tx.QueryRow(ctx, `
INSERT INTO api_keys (identity_id, product, organization_id, name, secret_hash, last4)
SELECT $1, $2, $3, $4, $5, $6
WHERE (SELECT count(*) FROM api_keys
	WHERE identity_id = $1 AND product = $2 AND revoked_at IS NULL AND stopped_at IS NULL) < $7
RETURNING `+apiKeyColumns, in.IdentityID, in.Product, in.OrganizationID, in.Name, in.SecretHash, in.Last4, LiveKeyLimit))
		return err
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return APIKey{}, ErrKeyLimit
	}
	if err != nil {
		return APIKey{}, fmt.Errorf("store: create api key: %w", err)
	}
	return k, nil
}

// ListAPIKeys returns an identity's keys in a product, live or not, newest first.
func (s *Store) ListAPIKeys(ctx context.Context, identityID, product string) ([]APIKey, error) {
	rows, err := s.write.Query(ctx, `SELECT `+apiKeyColumns+` FROM api_keys
WHERE identity_id = $1 AND product = $2 ORDER BY created_at DESC, id`, identityID, product)
	if err != nil {
		return nil, fmt.Errorf("store: list api keys: %w", err)
	}
	keys, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (APIKey, error) { return scanAPIKey(r) })
	if err != nil {
		return nil, fmt.Errorf("store: list api keys: %w", err)
	}
	return keys, nil
}

// RevokeAPIKey revokes one of an identity's keys in a product; revoking it
// again changes nothing. A key of another identity or product, or none, is
// ErrKeyNotFound. id must be a UUID.
func (s *Store) RevokeAPIKey(ctx context.Context, identityID, product, id string) error {
	tag, err := s.write.Exec(ctx, `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now())
WHERE id = $1 AND identity_id = $2 AND product = $3`, id, identityID, product)
	if err != nil {
		return fmt.Errorf("store: revoke api key: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return ErrKeyNotFound
	}
	return nil
}

// APIKeyByHash finds a key, live or not, by the SHA-256 of the whole key.
func (s *Store) APIKeyByHash(ctx context.Context, hash []byte) (APIKey, error) {
	k, err := scanAPIKey(s.write.QueryRow(ctx, `SELECT `+apiKeyColumns+` FROM api_keys WHERE secret_hash = $1`, hash))
	if errors.Is(err, pgx.ErrNoRows) {
		return APIKey{}, ErrKeyNotFound
	}
	if err != nil {
		return APIKey{}, fmt.Errorf("store: api key: %w", err)
	}
	return k, nil
}

// TouchAPIKey records a use of a key at at, writing only when the stored
// last use is older than KeyUseInterval: at most one write an hour per
// key, whatever the number of replicas. It reports whether it wrote.
func (s *Store) TouchAPIKey(ctx context.Context, id string, at time.Time) (bool, error) {
	tag, err := s.write.Exec(ctx, `UPDATE api_keys SET last_used_at = $2
WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= $2::timestamptz - $3::interval)`, id, at, fmt.Sprintf("%d seconds", int(KeyUseInterval.Seconds())))
	if err != nil {
		return false, fmt.Errorf("store: touch api key: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}
