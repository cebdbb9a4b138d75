// Package identitytest is a local stand-in for the house's identity
// service, for tests only: it serves its JWKS over HTTP (and can stop
// answering) and signs real sessions and events with its own key, through
// pkg/identity's Signer.
package identitytest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/okfindex/okf-index/pkg/identity"
)

// Issuer and Audience of the stand-in's tokens.
const (
	Issuer   = "https://identity.house.test"
	Audience = "okf"
)

// JWKSPath is where the stand-in serves its keys.
const JWKSPath = "/.well-known/jwks.json"

// Server is a running stand-in.
type Server struct {
	*httptest.Server
	Signer *identity.Signer
	t      testing.TB
	down   atomic.Bool
	Hits   atomic.Int64 // JWKS requests answered
}

// New starts a stand-in signing with a fresh key of alg (EdDSA or ES256);
// it stops with the test.
func New(t testing.TB, alg string) *Server {
	t.Helper()
	signer, err := identity.NewSigner(alg)
	if err != nil {
		t.Fatal(err)
	}
	jwks, err := signer.JWKS()
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Signer: signer, t: t}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != JWKSPath {
			http.NotFound(w, r)
			return
		}
		if s.down.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		s.Hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write(jwks)
	}))
	t.Cleanup(s.Close)
	return s
}

// SetDown makes the JWKS answer 503 (true) or serve again (false).
func (s *Server) SetDown(down bool) { s.down.Store(down) }

// JWKSURL is the URL of the stand-in's JWKS.
func (s *Server) JWKSURL() string { return s.URL + JWKSPath }

// Env is the API configuration that trusts the stand-in.
func (s *Server) Env() map[string]string {
	return map[string]string{
		"AUTH_JWKS_URL": s.JWKSURL(),
		"AUTH_ALG":      s.Signer.Alg(),
		"AUTH_ISSUER":   Issuer,
		"AUTH_AUDIENCE": Audience,
	}
}

// Claims are the claims of a fresh session of identity: this product,
// signed in now with a password, no second factor, valid for an hour.
func (s *Server) Claims(identityID string) identity.SessionClaims {
	now := time.Now()
	return identity.SessionClaims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    Issuer,
			Subject:   identityID,
			Audience:  jwt.ClaimStrings{Audience},
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour)),
			ID:        RandomID(),
		},
		SessionID: "sess-" + RandomID(),
		Product:   Audience,
		AuthTime:  jwt.NewNumericDate(now),
		Methods:   []string{"pwd"},
		MFA:       identity.MFANone,
	}
}

// Mint signs claims as a session.
func (s *Server) Mint(c identity.SessionClaims) string {
	s.t.Helper()
	tok, err := s.Signer.Mint(c)
	if err != nil {
		s.t.Fatal(err)
	}
	return tok
}

// Session mints a fresh session of identity (Claims), changed by each edit.
func (s *Server) Session(identityID string, edits ...func(*identity.SessionClaims)) string {
	s.t.Helper()
	c := s.Claims(identityID)
	for _, e := range edits {
		e(&c)
	}
	return s.Mint(c)
}

// Event signs an identity event of one type about identity, issued now;
// payload is the event's object (nil for {}).
func (s *Server) Event(identityID, eventType string, payload any) string {
	s.t.Helper()
	if payload == nil {
		payload = map[string]any{}
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		s.t.Fatal(err)
	}
	tok, err := s.Signer.SignEvent(identity.EventClaims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:   Issuer,
			Subject:  identityID,
			Audience: jwt.ClaimStrings{Audience},
			IssuedAt: jwt.NewNumericDate(time.Now()),
			ID:       RandomID(),
		},
		Events: map[string]json.RawMessage{eventType: raw},
	})
	if err != nil {
		s.t.Fatal(err)
	}
	return tok
}

// RandomID is 16 random hex characters.
func RandomID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Picture is a valid WebP image (1x1, lossless, 34 bytes), for picture events.
var Picture = []byte("RIFF\x1a\x00\x00\x00WEBPVP8L\r\x00\x00\x00/\x00\x00\x00\x10\a\x10\x11\x11\x88\x88\xfe\a\x00")
