package identity

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/MicahParks/jwkset"
	"github.com/golang-jwt/jwt/v5"

	"github.com/okfindex/okf-index/pkg/config"
)

// Signer signs sessions and events as the identity service would, with a
// development key. The service never signs; okfctl session and the tests do.
type Signer struct {
	alg    string
	key    crypto.Signer
	kid    string
	method jwt.SigningMethod
}

// NewSigner generates a key for alg (config.AlgEdDSA or config.AlgES256).
func NewSigner(alg string) (*Signer, error) {
	var key crypto.Signer
	var err error
	switch alg {
	case config.AlgEdDSA:
		_, key, err = ed25519.GenerateKey(rand.Reader)
	case config.AlgES256:
		key, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	default:
		return nil, fmt.Errorf("identity: no signer for %q", alg)
	}
	if err != nil {
		return nil, err
	}
	return newSigner(key)
}

// ParseSigner reads a PKCS #8 PEM private key: Ed25519 signs EdDSA, P-256 ES256.
func ParseSigner(pemBytes []byte) (*Signer, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil || block.Type != "PRIVATE KEY" {
		return nil, errors.New("identity: not a PKCS #8 PEM private key")
	}
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("identity: %w", err)
	}
	s, ok := key.(crypto.Signer)
	if !ok {
		return nil, errors.New("identity: the key cannot sign")
	}
	return newSigner(s)
}

func newSigner(key crypto.Signer) (*Signer, error) {
	s := &Signer{key: key}
	switch k := key.(type) {
	case ed25519.PrivateKey:
		s.alg, s.method = config.AlgEdDSA, jwt.SigningMethodEdDSA
	case *ecdsa.PrivateKey:
		if k.Curve != elliptic.P256() {
			return nil, errors.New("identity: an ECDSA key must be on P-256")
		}
		s.alg, s.method = config.AlgES256, jwt.SigningMethodES256
	default:
		return nil, fmt.Errorf("identity: unsupported key %T", key)
	}
	der, err := x509.MarshalPKIXPublicKey(key.Public())
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(der)
	s.kid = "dev-" + base64.RawURLEncoding.EncodeToString(sum[:12])
	return s, nil
}

// Alg is the signer's algorithm.
func (s *Signer) Alg() string { return s.alg }

// KID is the key id tokens carry in their header.
func (s *Signer) KID() string { return s.kid }

// PEM is the private key in PKCS #8 PEM.
func (s *Signer) PEM() ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(s.key)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

// JWKS is the public JWKS document of the key.
func (s *Signer) JWKS() ([]byte, error) {
	jwk, err := jwkset.NewJWKFromKey(s.key.Public(), jwkset.JWKOptions{Metadata: jwkset.JWKMetadataOptions{
		KID: s.kid, ALG: jwkset.ALG(s.alg), USE: jwkset.UseSig,
	}})
	if err != nil {
		return nil, err
	}
	return json.MarshalIndent(jwkset.JWKSMarshal{Keys: []jwkset.JWKMarshal{jwk.Marshal()}}, "", "  ")
}

// InJWKS reports whether a JWKS document holds the signer's public key.
func (s *Signer) InJWKS(doc []byte) bool {
	var set jwkset.JWKSMarshal
	if json.Unmarshal(doc, &set) != nil {
		return false
	}
	keys, err := set.JWKSlice()
	if err != nil {
		return false
	}
	pub, _ := s.key.Public().(interface{ Equal(crypto.PublicKey) bool })
	for _, k := range keys {
		if pub != nil && pub.Equal(k.Key()) {
			return true
		}
	}
	return false
}

// Sign signs claims with typ in the header.
func (s *Signer) Sign(claims jwt.Claims, typ string) (string, error) {
	t := jwt.NewWithClaims(s.method, claims)
	t.Header["kid"] = s.kid
	t.Header["typ"] = typ
	return t.SignedString(s.key)
}

// Mint signs a session.
func (s *Signer) Mint(c SessionClaims) (string, error) { return s.Sign(c, TypeSession) }

// SignEvent signs an identity event.
func (s *Signer) SignEvent(c EventClaims) (string, error) { return s.Sign(c, TypeEvent) }

// Development key files under a directory (okfctl run writes them under
// .data/identity when the full variant has no key source configured).
const (
	DevKeyFile  = "dev-key.pem"   // the private key, 0600
	DevJWKSFile = "dev-jwks.json" // its public JWKS, what AUTH_KEY_FILE names
)

// EnsureDevKey returns the development key of dir, generating it (EdDSA)
// on first use, and writes its JWKS beside it. It returns the JWKS path.
func EnsureDevKey(dir string) (*Signer, string, error) {
	keyPath, jwksPath := filepath.Join(dir, DevKeyFile), filepath.Join(dir, DevJWKSFile)
	s, err := LoadSigner(keyPath)
	if errors.Is(err, os.ErrNotExist) {
		if s, err = NewSigner(config.AlgEdDSA); err != nil {
			return nil, "", err
		}
		b, err := s.PEM()
		if err != nil {
			return nil, "", err
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, "", err
		}
		if err := os.WriteFile(keyPath, b, 0o600); err != nil {
			return nil, "", err
		}
	} else if err != nil {
		return nil, "", err
	}
	doc, err := s.JWKS()
	if err != nil {
		return nil, "", err
	}
	if old, err := os.ReadFile(jwksPath); err != nil || !bytes.Equal(old, doc) {
		if err := os.WriteFile(jwksPath, doc, 0o644); err != nil {
			return nil, "", err
		}
	}
	return s, jwksPath, nil
}

// LoadSigner reads a PKCS #8 PEM private key file.
func LoadSigner(path string) (*Signer, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := ParseSigner(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}
