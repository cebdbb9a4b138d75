package identity_test

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/identity"
	"github.com/okfindex/okf-index/pkg/identitytest"
)

func verifier(t testing.TB, idp *identitytest.Server) *identity.Verifier {
	t.Helper()
	cfg, err := config.Load(func(k string) string { return idp.Env()[k] })
	if err != nil {
		t.Fatal(err)
	}
	ks, err := identity.NewKeySource(t.Context(), cfg.Auth, nil)
	if err != nil {
		t.Fatal(err)
	}
	return identity.NewVerifier(ks, cfg.Auth, nil)
}

func TestSessionVerified(t *testing.T) {
	t.Parallel()
	for _, alg := range []string{config.AlgEdDSA, config.AlgES256} {
		idp := identitytest.New(t, alg)
		v := verifier(t, idp)
		c := idp.Claims("id-1")
		c.MFA = identity.MFAVerified
		c.Methods = []string{"pwd", "otp"}
		c.Orgs = []identity.Membership{{ID: "org-1", Role: identity.RoleOwner, Products: []string{"okf"}}}
		c.Name, c.Locale, c.Zoneinfo = "Ana", "pt-BR", "America/Sao_Paulo"
		s, err := v.Session(t.Context(), idp.Mint(c))
		if err != nil {
			t.Fatalf("%s: %v", alg, err)
		}
		if s.IdentityID != "id-1" || s.SessionID != c.SessionID || s.ProductID != "okf" || s.Audience != "okf" ||
			!s.SecondFactor() || len(s.Methods) != 2 || s.Name != "Ana" || s.TimeZone != "America/Sao_Paulo" {
			t.Errorf("%s: %+v", alg, s)
		}
		if m, ok := s.Membership("org-1"); !ok || m.Role != identity.RoleOwner {
			t.Errorf("%s: membership %+v %v", alg, m, ok)
		}
	}
}

// Every forged, foreign or stale token is refused as invalid (never as
// unavailable), whatever its claims say.
func TestSessionRefusals(t *testing.T) {
	t.Parallel()
	idp := identitytest.New(t, config.AlgEdDSA)
	v := verifier(t, idp)
	other := identitytest.New(t, config.AlgEdDSA) // a key not in the JWKS
	good := idp.Session("id-1")
	parts := strings.Split(good, ".")

	// HS256 with the public JWKS as the HMAC secret (the classic confusion).
	jwks, _ := idp.Signer.JWKS()
	hs := jwt.NewWithClaims(jwt.SigningMethodHS256, idp.Claims("id-1"))
	hs.Header["kid"] = idp.Signer.KID()
	hsTok, _ := hs.SignedString(jwks)
	none := jwt.NewWithClaims(jwt.SigningMethodNone, idp.Claims("id-1"))
	none.Header["kid"] = idp.Signer.KID()
	noneTok, _ := none.SignedString(jwt.UnsafeAllowNoneSignatureType)
	tampered := parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(
		strings.Replace(mustDecode(t, parts[1]), `"sub":"id-1"`, `"sub":"id-2"`, 1))) + "." + parts[2]
	edits := map[string]func(*identity.SessionClaims){
		"wrong audience": func(c *identity.SessionClaims) { c.Audience = jwt.ClaimStrings{"other"} },
		"wrong issuer":   func(c *identity.SessionClaims) { c.Issuer = "https://evil.example" },
		"wrong product":  func(c *identity.SessionClaims) { c.Product = "other" },
		"expired": func(c *identity.SessionClaims) {
			c.ExpiresAt = jwt.NewNumericDate(time.Now().Add(-identity.Leeway - time.Second))
		},
		"no expiry":         func(c *identity.SessionClaims) { c.ExpiresAt = nil },
		"iat in the future": func(c *identity.SessionClaims) { c.IssuedAt = jwt.NewNumericDate(time.Now().Add(time.Hour)) },
		"no iat":            func(c *identity.SessionClaims) { c.IssuedAt = nil },
		"no sid":            func(c *identity.SessionClaims) { c.SessionID = "" },
		"no subject":        func(c *identity.SessionClaims) { c.Subject = "" },
		"no auth_time":      func(c *identity.SessionClaims) { c.AuthTime = nil },
	}
	cases := map[string]string{
		"alg none":          noneTok,
		"HS256 public key":  hsTok,
		"key not in JWKS":   other.Session("id-1"),
		"tampered payload":  tampered,
		"garbage":           "not.a.token",
		"an event":          idp.Event("id-1", identity.EventSessionsEnded, nil),
		"signature dropped": parts[0] + "." + parts[1] + ".",
	}
	for name, e := range edits {
		cases[name] = idp.Session("id-1", e)
	}
	for name, tok := range cases {
		if _, err := v.Session(t.Context(), tok); !errors.Is(err, identity.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
	// A verifier pinned to ES256 refuses an EdDSA token of a key it holds.
	es := identitytest.New(t, config.AlgES256)
	if _, err := verifier(t, es).Session(t.Context(), idp.Session("id-1")); !errors.Is(err, identity.ErrInvalid) {
		t.Errorf("other algorithm: %v", err)
	}
}

func mustDecode(t *testing.T, s string) string {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// An unreachable JWKS with nothing cached is ErrUnavailable, not invalid;
// once it answers, sessions verify; a key source not configured is
// unavailable too.
func TestKeysUnavailable(t *testing.T) {
	t.Parallel()
	idp := identitytest.New(t, config.AlgEdDSA)
	idp.SetDown(true)
	v := verifier(t, idp)
	tok := idp.Session("id-1")
	if _, err := v.Session(t.Context(), tok); !errors.Is(err, identity.ErrUnavailable) {
		t.Fatalf("down at start: %v", err)
	}
	unconfigured := identity.NewVerifier(&identity.KeySource{}, config.Auth{Alg: config.AlgEdDSA, Issuer: identitytest.Issuer, Audience: "okf"}, nil)
	if _, err := unconfigured.Session(t.Context(), tok); !errors.Is(err, identity.ErrUnavailable) {
		t.Fatalf("not configured: %v", err)
	}
	idp.SetDown(false)
	deadline := time.Now().Add(40 * time.Second)
	for {
		_, err := v.Session(t.Context(), tok)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the JWKS answers again, still %v", err)
		}
		time.Sleep(250 * time.Millisecond)
	}
	// Keys now cached: the identity service going down changes nothing.
	idp.SetDown(true)
	if _, err := v.Session(t.Context(), tok); err != nil {
		t.Fatalf("cached keys: %v", err)
	}
}

func TestEventVerified(t *testing.T) {
	t.Parallel()
	idp := identitytest.New(t, config.AlgEdDSA)
	v := verifier(t, idp)
	ev, err := v.Event(t.Context(), idp.Event("id-1", identity.EventPictureChanged,
		map[string]any{"webp": base64.StdEncoding.EncodeToString(identitytest.Picture)}))
	if err != nil || ev.IdentityID != "id-1" || ev.Type != identity.EventPictureChanged || len(ev.Picture) == 0 {
		t.Fatalf("%+v %v", ev, err)
	}
	for name, tok := range map[string]string{
		"a session":     idp.Session("id-1"),
		"unknown type":  idp.Event("id-1", "urn:other", nil),
		"not a webp":    idp.Event("id-1", identity.EventPictureChanged, map[string]any{"webp": base64.StdEncoding.EncodeToString([]byte("GIF89a"))}),
		"not base64":    idp.Event("id-1", identity.EventPictureChanged, map[string]any{"webp": "%%%"}),
		"another's key": identitytest.New(t, config.AlgEdDSA).Event("id-1", identity.EventPasswordChanged, nil),
	} {
		if _, err := v.Event(t.Context(), tok); !errors.Is(err, identity.ErrInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestCheckPicture(t *testing.T) {
	if err := identity.CheckPicture(identitytest.Picture); err != nil {
		t.Fatal(err)
	}
	big := append(append([]byte{}, identitytest.Picture...), make([]byte, identity.MaxPicture)...)
	for name, b := range map[string][]byte{"empty": nil, "png": []byte("\x89PNG\r\n\x1a\n"), "too big": big,
		// A header that decodes, a body that does not: cut at 100 bytes.
		"truncated 100 bytes": vp8l(64, 64, 100),
		// A small file declaring a canvas of 16384 x 16384.
		"huge canvas": vp8l(16384, 16384, 200),
	} {
		if err := identity.CheckPicture(b); !errors.Is(err, identity.ErrPicture) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestDevKey(t *testing.T) {
	dir := t.TempDir()
	s1, jwksPath, err := identity.EnsureDevKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	s2, _, err := identity.EnsureDevKey(dir)
	if err != nil || s2.KID() != s1.KID() {
		t.Fatalf("the key changed: %v", err)
	}
	doc, _ := s1.JWKS()
	other, _ := identity.NewSigner(config.AlgEdDSA)
	if !s1.InJWKS(doc) || other.InJWKS(doc) {
		t.Error("InJWKS")
	}
	cfg := config.Auth{KeyFile: jwksPath, Alg: config.AlgEdDSA, Issuer: "i", Audience: "okf"}
	ks, err := identity.NewKeySource(t.Context(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	tok, _ := s1.Mint(identity.SessionClaims{RegisteredClaims: jwt.RegisteredClaims{Issuer: "i", Subject: "dev",
		Audience: jwt.ClaimStrings{"okf"}, IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour))},
		SessionID: "s", Product: "okf", AuthTime: jwt.NewNumericDate(now)})
	if _, err := identity.NewVerifier(ks, cfg, nil).Session(t.Context(), tok); err != nil {
		t.Fatal(err)
	}
}

// vp8l is a lossless WebP of size bytes whose header declares w x h and
// whose bitstream is cut short (zeros after the header).
func vp8l(w, h, size int) []byte {
	bits := uint32(w-1) | uint32(h-1)<<14 // alpha 0, version 0
	chunk := make([]byte, size-20)
	chunk[0] = 0x2f
	chunk[1], chunk[2], chunk[3], chunk[4] = byte(bits), byte(bits>>8), byte(bits>>16), byte(bits>>24)
	le := func(n int) []byte { return []byte{byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24)} }
	b := append([]byte("RIFF"), le(size-8)...)
	b = append(b, "WEBPVP8L"...)
	b = append(b, le(len(chunk))...)
	return append(b, chunk...)
}
