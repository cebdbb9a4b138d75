package main

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/identity"
)

// devIdentityDir is where okfctl run keeps the development identity key
// (under its -data directory).
const devIdentityDir = "identity"

// sessionCmd mints development sessions and identity events, signed with
// the development key okfctl run generates, so the full variant's account
// flow can be tried by hand (docs/api.md, "Accounts by hand"). It refuses when
// the environment configures production keys: AUTH_JWKS_URL, or an
// AUTH_KEY_FILE that does not hold the development key.
func sessionCmd(args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 || (args[0] != "mint" && args[0] != "event") {
		fmt.Fprintln(stderr, "usage: okfctl session mint [flags] | okfctl session event [flags] TYPE")
		return errUsage
	}
	fs := flag.NewFlagSet("session "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data", ".data", "`directory` of okfctl run (the key is in its identity/)")
	sub := fs.String("sub", "dev-user", "the identity")
	sid := fs.String("sid", "", "the session id (default: random)")
	ttl := fs.Duration("ttl", time.Hour, "how long the session lasts")
	authAge := fs.Duration("auth-age", 0, "how long ago the user signed in (over 5m: key creation needs a new sign-in)")
	mfa := fs.Bool("mfa", false, "a second factor was used in the session")
	name := fs.String("name", "", "the name the session carries")
	var orgs orgFlags
	fs.Var(&orgs, "org", "an organization `id:role[:product,...]` (repeatable; products default to this one)")
	webp := fs.String("webp", "", "event picture-changed: the WebP `file` (none removes the picture)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		return err
	}
	signer, err := devSigner(cfg.Auth, filepath.Join(*dataDir, devIdentityDir))
	if err != nil {
		return err
	}
	now := time.Now()
	reg := jwt.RegisteredClaims{
		Issuer: cfg.Auth.Issuer, Subject: *sub, Audience: jwt.ClaimStrings{cfg.Auth.Audience},
		IssuedAt: jwt.NewNumericDate(now), ID: randomHex(8),
	}
	var tok string
	if args[0] == "mint" {
		if *sid == "" {
			*sid = "dev-" + randomHex(8)
		}
		reg.ExpiresAt = jwt.NewNumericDate(now.Add(*ttl))
		c := identity.SessionClaims{RegisteredClaims: reg, SessionID: *sid, Product: cfg.Auth.Audience,
			AuthTime: jwt.NewNumericDate(now.Add(-*authAge)), Methods: []string{"pwd"}, MFA: identity.MFANone, Name: *name}
		if *mfa {
			c.Methods, c.MFA = []string{"pwd", "otp"}, identity.MFAVerified
		}
		for _, o := range orgs {
			if len(o.Products) == 0 {
				o.Products = []string{cfg.Auth.Audience}
			}
			c.Orgs = append(c.Orgs, o)
		}
		tok, err = signer.Mint(c)
	} else {
		tok, err = devEvent(signer, reg, fs.Args(), *webp)
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, tok)
	return nil
}

// devSigner loads the development key, refusing when the service is
// configured for production keys.
func devSigner(auth config.Auth, dir string) (*identity.Signer, error) {
	if auth.JWKSURL != "" {
		return nil, errors.New("AUTH_JWKS_URL is set: this service verifies sessions with production keys; okfctl session signs with the development key only")
	}
	signer, err := identity.LoadSigner(filepath.Join(dir, identity.DevKeyFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no development key in %s: run the full variant once (make run VARIANT=full)", dir)
	}
	if err != nil {
		return nil, err
	}
	if auth.KeyFile != "" {
		doc, err := os.ReadFile(auth.KeyFile)
		if err != nil || !signer.InJWKS(doc) {
			return nil, fmt.Errorf("AUTH_KEY_FILE %s does not hold the development key: the service is configured for production keys; okfctl session signs with the development key only", auth.KeyFile)
		}
	}
	if signer.Alg() != auth.Alg {
		return nil, fmt.Errorf("the development key signs %s but AUTH_ALG is %s", signer.Alg(), auth.Alg)
	}
	return signer, nil
}

// devEvent signs an identity event of the type named by args.
func devEvent(signer *identity.Signer, reg jwt.RegisteredClaims, args []string, webpFile string) (string, error) {
	types := map[string]string{
		"password-changed": identity.EventPasswordChanged,
		"sessions-ended":   identity.EventSessionsEnded,
		"picture-changed":  identity.EventPictureChanged,
	}
	if len(args) != 1 || types[args[0]] == "" {
		return "", fmt.Errorf("%w: okfctl session event [flags] password-changed|sessions-ended|picture-changed", errUsage)
	}
	payload := []byte(`{}`)
	if args[0] == "picture-changed" {
		payload = []byte(`{"webp":null}`)
		if webpFile != "" {
			b, err := os.ReadFile(webpFile)
			if err != nil {
				return "", err
			}
			if err := identity.CheckPicture(b); err != nil {
				return "", err
			}
			payload = fmt.Appendf(nil, `{"webp":%q}`, base64.StdEncoding.EncodeToString(b))
		}
	}
	return signer.SignEvent(identity.EventClaims{RegisteredClaims: reg, Events: map[string]json.RawMessage{types[args[0]]: payload}})
}

// orgFlags are the -org flags.
type orgFlags []identity.Membership

func (o *orgFlags) String() string { return fmt.Sprint(*o) }

func (o *orgFlags) Set(v string) error {
	parts := strings.Split(v, ":")
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" || len(parts) > 3 {
		return errors.New("want id:role[:product,...]")
	}
	m := identity.Membership{ID: parts[0], Role: parts[1]}
	if len(parts) == 3 {
		m.Products = strings.Split(parts[2], ",")
	}
	*o = append(*o, m)
	return nil
}

// randomHex is 2n random hex characters.
func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
