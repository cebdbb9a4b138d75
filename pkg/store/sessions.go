package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// RevokeSession ends one product's session here (logout); the same
// identity's sessions of other products keep working. expires is the
// session's own expiry, after which the row is no longer needed; rows past
// theirs are pruned on the way.
func (s *Store) RevokeSession(ctx context.Context, product, sessionID, identityID string, expires time.Time) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `
INSERT INTO revoked_sessions (product, session_id, identity_id, expires_at) VALUES ($1, $2, $3, $4)
ON CONFLICT (product, session_id) DO NOTHING`, product, sessionID, identityID, expires); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM revoked_sessions WHERE expires_at < now() - interval '1 day'`)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: revoke session: %w", err)
	}
	return nil
}

// SessionRevoked reports whether a session issued at issuedAt has ended:
// logged out here, or ended at the house for its whole identity at or
// after the second it was issued (token times are whole seconds: a session
// issued in the same second as a password change is ended too).
func (s *Store) SessionRevoked(ctx context.Context, product, sessionID, identityID string, issuedAt time.Time) (bool, error) {
	var revoked bool
	err := s.write.QueryRow(ctx, `
SELECT EXISTS (SELECT 1 FROM revoked_sessions WHERE product = $1 AND session_id = $2)
	OR EXISTS (SELECT 1 FROM identity_cutoffs WHERE identity_id = $3 AND sessions_before >= $4)`,
		product, sessionID, identityID, issuedAt).Scan(&revoked)
	if err != nil {
		return false, fmt.Errorf("store: session revoked: %w", err)
	}
	return revoked, nil
}

// IdentityEvent is what an event of the identity service changes here.
type IdentityEvent struct {
	JTI        string // the event's id: applied once
	IdentityID string
	Kind       string
	At         time.Time // when it happened at the house

	// EndSessions refuses every session of the identity issued up to At.
	EndSessions bool
	// StopKeys makes every API key of the identity inactive.
	StopKeys bool
	// SetAvatar replaces the identity's picture with Avatar (nil removes it).
	SetAvatar bool
	Avatar    []byte
}

// ApplyIdentityEvent applies an event in one transaction, once per JTI:
// applied is false for an event seen before, which changes nothing.
func (s *Store) ApplyIdentityEvent(ctx context.Context, ev IdentityEvent) (applied bool, err error) {
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO identity_events (jti, identity_id, kind) VALUES ($1, $2, $3)
ON CONFLICT (jti) DO NOTHING`, ev.JTI, ev.IdentityID, ev.Kind)
		if err != nil {
			return err
		}
		if applied = tag.RowsAffected() == 1; !applied {
			return nil
		}
		if ev.EndSessions {
			if _, err := tx.Exec(ctx, `
INSERT INTO identity_cutoffs AS c (identity_id, sessions_before) VALUES ($1, $2)
ON CONFLICT (identity_id) DO UPDATE SET sessions_before = GREATEST(c.sessions_before, EXCLUDED.sessions_before)`,
				ev.IdentityID, ev.At); err != nil {
				return err
			}
		}
		if ev.StopKeys {
			if _, err := tx.Exec(ctx, `UPDATE api_keys SET stopped_at = now()
WHERE identity_id = $1 AND stopped_at IS NULL AND revoked_at IS NULL`, ev.IdentityID); err != nil {
				return err
			}
		}
		if ev.SetAvatar {
			return setAvatar(ctx, tx, ev.IdentityID, ev.Avatar)
		}
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("store: identity event: %w", err)
	}
	return applied, nil
}
