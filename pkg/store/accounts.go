package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Profile is an identity's profile in this product (contract 2.8).
type Profile struct {
	IdentityID string
	Name       string
	Locale     string
	TimeZone   string
	Theme      string
	Revision   int64 // moves on every change
}

// ProfileClaims are the profile fields a session carries; "" leaves the
// stored value (or the default) as it is.
type ProfileClaims struct {
	Name, Locale, TimeZone string
}

// ErrNoAvatar is returned when an identity has no picture.
var ErrNoAvatar = errors.New("store: no avatar")

// syncProfileSQL creates the profile on first sight with defaults, or
// brings it in step with the claims, moving revision only when a field
// changes; it returns the profile either way.
const syncProfileSQL = `
WITH up AS (
	INSERT INTO account_profiles AS p (identity_id, name, locale, time_zone)
	VALUES ($1, $2, COALESCE(NULLIF($3, ''), 'en'), COALESCE(NULLIF($4, ''), 'UTC'))
	ON CONFLICT (identity_id) DO UPDATE SET
		name = COALESCE(NULLIF($2, ''), p.name),
		locale = COALESCE(NULLIF($3, ''), p.locale),
		time_zone = COALESCE(NULLIF($4, ''), p.time_zone),
		revision = p.revision + 1,
		updated_at = now()
	WHERE (p.name, p.locale, p.time_zone) IS DISTINCT FROM
		(COALESCE(NULLIF($2, ''), p.name), COALESCE(NULLIF($3, ''), p.locale), COALESCE(NULLIF($4, ''), p.time_zone))
	RETURNING name, locale, time_zone, theme, revision
)
SELECT name, locale, time_zone, theme, revision FROM up
UNION ALL
SELECT name, locale, time_zone, theme, revision FROM account_profiles
WHERE identity_id = $1 AND NOT EXISTS (SELECT 1 FROM up)`

// SyncProfile returns the profile of an identity, created on first sight
// with defaults (locale en, time zone UTC, theme system, revision 1) and
// updated from the session's claims when they differ.
func (s *Store) SyncProfile(ctx context.Context, identityID string, c ProfileClaims) (Profile, error) {
	p := Profile{IdentityID: identityID}
	// A profile created by a concurrent first request after this
	// statement's snapshot is seen by the second attempt.
	for range 2 {
		err := s.write.QueryRow(ctx, syncProfileSQL, identityID, c.Name, c.Locale, c.TimeZone).
			Scan(&p.Name, &p.Locale, &p.TimeZone, &p.Theme, &p.Revision)
		if errors.Is(err, pgx.ErrNoRows) {
			continue
		}
		if err != nil {
			return Profile{}, fmt.Errorf("store: sync profile: %w", err)
		}
		return p, nil
	}
	return Profile{}, fmt.Errorf("store: sync profile: no row after two attempts")
}

// Avatar returns an identity's picture (WebP), or ErrNoAvatar.
func (s *Store) Avatar(ctx context.Context, identityID string) ([]byte, error) {
	var webp []byte
	err := s.write.QueryRow(ctx, `SELECT webp FROM account_avatars WHERE identity_id = $1`, identityID).Scan(&webp)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrNoAvatar
	}
	if err != nil {
		return nil, fmt.Errorf("store: avatar: %w", err)
	}
	return webp, nil
}

// setAvatar stores an identity's picture, or removes it when webp is nil.
func setAvatar(ctx context.Context, tx pgx.Tx, identityID string, webp []byte) error {
	if webp == nil {
		_, err := tx.Exec(ctx, `DELETE FROM account_avatars WHERE identity_id = $1`, identityID)
		return err
	}
	_, err := tx.Exec(ctx, `
INSERT INTO account_avatars (identity_id, webp) VALUES ($1, $2)
ON CONFLICT (identity_id) DO UPDATE SET webp = EXCLUDED.webp, updated_at = now()`, identityID, webp)
	return err
}
