package identity

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/okfindex/okf-index/pkg/config"
)

// Leeway is the clock skew tolerated on exp, nbf and iat.
const Leeway = 30 * time.Second

// ErrInvalid is returned for a token that is not a valid session or event
// of this product; the wrapped error says why (never the token).
var ErrInvalid = errors.New("identity: invalid token")

// Token types (the JWT header's typ). A session carries JWT or none; an
// event carries secevent+jwt (RFC 8417), so neither passes for the other.
const (
	TypeSession = "JWT"
	TypeEvent   = "secevent+jwt"
)

// Organization roles and second-factor states the identity service writes.
const (
	RoleOwner   = "owner"
	RoleAdmin   = "admin"
	RoleMember  = "member"
	MFAVerified = "verified" // a second factor was used in this session
	MFANone     = "none"
)

// Membership is an organization the identity belongs to.
type Membership struct {
	ID       string   `json:"id"`
	Role     string   `json:"role"`     // owner, admin or member
	Products []string `json:"products"` // products enabled for the organization
}

// SessionClaims are the claims of a session JWT, as the identity service
// writes them. sub is the identity, sid the session.
type SessionClaims struct {
	jwt.RegisteredClaims
	SessionID string           `json:"sid"`
	Product   string           `json:"product"`
	AuthTime  *jwt.NumericDate `json:"auth_time"`
	Methods   []string         `json:"amr,omitempty"`
	MFA       string           `json:"mfa,omitempty"`
	Orgs      []Membership     `json:"orgs,omitempty"`
	Name      string           `json:"name,omitempty"`
	Locale    string           `json:"locale,omitempty"`
	Zoneinfo  string           `json:"zoneinfo,omitempty"`
}

// Session is a verified session.
type Session struct {
	IdentityID string
	SessionID  string
	ProductID  string
	Audience   string
	AuthTime   time.Time // when the user last signed in
	IssuedAt   time.Time
	ExpiresAt  time.Time
	Methods    []string // amr
	MFAState   string   // verified or none
	Orgs       []Membership

	// Profile fields, "" when the token has none.
	Name, Locale, TimeZone string
}

// SecondFactor reports whether a second factor was used in the session.
func (s Session) SecondFactor() bool { return s.MFAState == MFAVerified }

// Membership returns the session's membership of an organization.
func (s Session) Membership(orgID string) (Membership, bool) {
	i := slices.IndexFunc(s.Orgs, func(m Membership) bool { return m.ID == orgID })
	if i < 0 {
		return Membership{}, false
	}
	return s.Orgs[i], true
}

// Verifier verifies the identity service's tokens for this product.
type Verifier struct {
	keys     *KeySource
	alg      string
	issuer   string
	audience string
	now      func() time.Time
}

// NewVerifier verifies with keys, as auth configures; now is the clock
// (time.Now when nil).
func NewVerifier(keys *KeySource, auth config.Auth, now func() time.Time) *Verifier {
	if now == nil {
		now = time.Now
	}
	return &Verifier{keys: keys, alg: auth.Alg, issuer: auth.Issuer, audience: auth.Audience, now: now}
}

// Audience is this product's id: the aud and product its sessions carry.
func (v *Verifier) Audience() string { return v.audience }

// parse verifies a token's signature with the pinned algorithm and its
// registered claims: issuer, audience, expiry (required, with Leeway), iat
// (required, not in the future), and its typ; base64 must be canonical.
func (v *Verifier) parse(ctx context.Context, raw string, claims jwt.Claims, typ string) error {
	p := jwt.NewParser(
		jwt.WithValidMethods([]string{v.alg}),
		jwt.WithIssuer(v.issuer),
		jwt.WithAudience(v.audience),
		jwt.WithLeeway(Leeway),
		jwt.WithIssuedAt(),
		jwt.WithTimeFunc(v.now),
		jwt.WithStrictDecoding(),
	)
	tok, err := p.ParseWithClaims(raw, claims, v.keys.keyfunc(ctx))
	if errors.Is(err, ErrUnavailable) {
		return ErrUnavailable
	}
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	got, _ := tok.Header["typ"].(string)
	if got == "" {
		got = TypeSession
	}
	if got != typ {
		return fmt.Errorf("%w: typ %q, want %q", ErrInvalid, got, typ)
	}
	if iat, _ := claims.GetIssuedAt(); iat == nil {
		return fmt.Errorf("%w: no iat", ErrInvalid)
	}
	return nil
}

// Session verifies a session token of this product. The error is
// ErrUnavailable when no key can be had, or wraps ErrInvalid.
func (v *Verifier) Session(ctx context.Context, raw string) (Session, error) {
	var c SessionClaims
	if err := v.parse(ctx, raw, &c, TypeSession); err != nil {
		return Session{}, err
	}
	switch {
	case c.ExpiresAt == nil:
		return Session{}, fmt.Errorf("%w: no exp", ErrInvalid)
	case c.Subject == "" || len(c.Subject) > 200:
		return Session{}, fmt.Errorf("%w: sub missing or too long", ErrInvalid)
	case c.SessionID == "" || len(c.SessionID) > 200:
		return Session{}, fmt.Errorf("%w: sid missing or too long", ErrInvalid)
	case c.Product != v.audience:
		return Session{}, fmt.Errorf("%w: product %q is not this product", ErrInvalid, c.Product)
	case c.AuthTime == nil || c.AuthTime.After(c.IssuedAt.Add(Leeway)):
		return Session{}, fmt.Errorf("%w: auth_time missing or after iat", ErrInvalid)
	}
	mfa := c.MFA
	if mfa != MFAVerified {
		mfa = MFANone
	}
	s := Session{
		IdentityID: c.Subject,
		SessionID:  c.SessionID,
		ProductID:  c.Product,
		Audience:   v.audience,
		AuthTime:   c.AuthTime.Time.UTC(),
		IssuedAt:   c.IssuedAt.Time.UTC(),
		ExpiresAt:  c.ExpiresAt.Time.UTC(),
		Methods:    c.Methods,
		MFAState:   mfa,
		Orgs:       c.Orgs,
		Name:       fitOrEmpty(c.Name, 200),
		Locale:     fitOrEmpty(c.Locale, 35),
		TimeZone:   fitOrEmpty(c.Zoneinfo, 64),
	}
	if s.Methods == nil {
		s.Methods = []string{}
	}
	return s, nil
}

// fitOrEmpty is s when it has at most n characters, else "" (the stored
// value is kept).
func fitOrEmpty(s string, n int) string {
	if len([]rune(s)) > n {
		return ""
	}
	return s
}
