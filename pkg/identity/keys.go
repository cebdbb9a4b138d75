package identity

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/MicahParks/keyfunc/v3"
	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/time/rate"

	"github.com/okfindex/okf-index/pkg/config"
)

// ErrUnavailable is returned when no key can be had: the key source is not
// configured, or the JWKS URL is unreachable and nothing is cached. The
// caller's session is neither valid nor invalid; it must be kept as it is.
var ErrUnavailable = errors.New("identity: keys unavailable")

// JWKS refresh settings: hourly in the background (each fetch up to
// fetchTimeout), and on a token whose kid is unknown at most every
// unknownKIDEvery. That refresh runs inside a request: it waits for the
// limiter and fetches within unknownKIDWait (keyfunc bounds both with one
// deadline), else the token's key is simply not found.
const (
	refreshInterval = time.Hour
	unknownKIDEvery = 10 * time.Second
	unknownKIDWait  = 2 * time.Second
	fetchTimeout    = 5 * time.Second
)

// KeySource holds the identity service's public keys.
type KeySource struct {
	kf keyfunc.Keyfunc // nil: not configured
}

// NewKeySource loads the keys auth names: a JWKS file is read now (an
// error if it cannot be); a JWKS URL is fetched now and refreshed in the
// background until ctx ends, and an unreachable URL is not an error (its
// keys are unavailable until it answers). Neither configured is a source
// with no keys.
func NewKeySource(ctx context.Context, auth config.Auth, log *slog.Logger) (*KeySource, error) {
	switch {
	case auth.KeyFile != "":
		b, err := os.ReadFile(auth.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("identity: AUTH_KEY_FILE: %w", err)
		}
		kf, err := keyfunc.NewJWKSetJSON(b)
		if err != nil {
			return nil, fmt.Errorf("identity: AUTH_KEY_FILE %s is not a JWKS document: %w", auth.KeyFile, err)
		}
		return &KeySource{kf: kf}, nil
	case auth.JWKSURL != "":
		if log == nil {
			log = slog.Default()
		}
		kf, err := keyfunc.NewDefaultOverrideCtx(ctx, []string{auth.JWKSURL}, keyfunc.Override{
			HTTPTimeout:       fetchTimeout,
			RefreshInterval:   refreshInterval,
			RefreshUnknownKID: rate.NewLimiter(rate.Every(unknownKIDEvery), 1),
			RateLimitWaitMax:  unknownKIDWait,
			RefreshErrorHandlerFunc: func(u string) func(context.Context, error) {
				return func(ctx context.Context, err error) {
					log.WarnContext(ctx, "identity: JWKS fetch failed", "url", u, "error", err.Error())
				}
			},
		})
		if err != nil {
			return nil, fmt.Errorf("identity: AUTH_JWKS_URL: %w", err)
		}
		return &KeySource{kf: kf}, nil
	}
	return &KeySource{}, nil
}

// keyfunc finds the key of a token for golang-jwt. When it finds none and
// the source holds no key at all, the error is ErrUnavailable; a key that
// is merely not in the set is the token's fault.
func (ks *KeySource) keyfunc(ctx context.Context) jwt.Keyfunc {
	return func(t *jwt.Token) (any, error) {
		if ks == nil || ks.kf == nil {
			return nil, ErrUnavailable
		}
		key, err := ks.kf.KeyfuncCtx(ctx)(t)
		if err == nil {
			if set, ok := key.(jwt.VerificationKeySet); ok && len(set.Keys) == 0 {
				return nil, ErrUnavailable
			}
			return key, nil
		}
		if all, rerr := ks.kf.Storage().KeyReadAll(ctx); rerr == nil && len(all) == 0 {
			return nil, ErrUnavailable
		}
		return nil, err
	}
}
