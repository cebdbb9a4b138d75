package account

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/identity"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// API keys of the full variant (contract 2.8, 3.3, section 5): hsk_ and 32
// random bytes (base64url), shown once; the store keeps only the SHA-256 of
// the whole key, and its last four characters.

const (
	apiKeyPrefix      = "hsk_"
	APIKeyLen         = len(apiKeyPrefix) + 43 // 32 bytes, base64url without padding
	maxKeyName        = 60                     // characters (contract section 8)
	maxKeyBody        = 4 << 10
	reauthWindow      = 5 * time.Minute // contract section 5, rule 1
	maxOrganizationID = 200
)

// KeyRecord is a key in the list (contract 2.8); never the key itself.
type KeyRecord struct {
	ID             string  `json:"id"`
	Name           string  `json:"name"`
	OrganizationID *string `json:"organizationId"`
	Last4          string  `json:"last4"`
	CreatedAt      string  `json:"createdAt"`
	LastUsedAt     *string `json:"lastUsedAt"`
	RevokedAt      *string `json:"revokedAt"`
	Active         bool    `json:"active"`
}

// NewKey is the key of a create answer: the record without its state.
type NewKey struct {
	ID             string  `json:"id"`
	Name           string  `json:"name"`
	OrganizationID *string `json:"organizationId"`
	Last4          string  `json:"last4"`
	CreatedAt      string  `json:"createdAt"`
}

// KeyCreated is the answer of POST /api/account/keys/create: secret is the
// whole key, shown this once.
type KeyCreated struct {
	Key    NewKey `json:"key"`
	Secret string `json:"secret"`
}

func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func optTimestamp(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := timestamp(*t)
	return &s
}

// keyCreate is a validated create body.
type keyCreate struct {
	name           string
	organizationID *string
}

// parseKeyCreate validates {name, organizationId}: name a string of 1 to
// 60 characters, not blank, without control characters; organizationId
// present, null or a string of 1 to 200 characters.
func parseKeyCreate(b []byte) (keyCreate, error) {
	var body map[string]json.RawMessage
	if err := json.Unmarshal(b, &body); err != nil || body == nil {
		return keyCreate{}, invalidRequest("The body is a JSON object {name, organizationId}.")
	}
	var in keyCreate
	raw, ok := body["name"]
	if !ok || json.Unmarshal(raw, &in.name) != nil || !validKeyName(in.name) {
		return keyCreate{}, apierror.New(apierror.InvalidKeyName, fmt.Sprintf("name is a string of 1 to %d characters, not blank, without control characters.", maxKeyName)).At("name")
	}
	raw, ok = body["organizationId"]
	badOrg := apierror.New(apierror.InvalidOrganization, "organizationId is required: null for an account key, or the id of one of your organizations.").At("organizationId")
	if !ok || json.Unmarshal(raw, &in.organizationID) != nil {
		return keyCreate{}, badOrg
	}
	if o := in.organizationID; o != nil && (*o == "" || len(*o) > maxOrganizationID || !utf8.ValidString(*o)) {
		return keyCreate{}, badOrg
	}
	return in, nil
}

func validKeyName(name string) bool {
	n := utf8.RuneCountInString(name)
	if !utf8.ValidString(name) || n == 0 || n > maxKeyName || len(bytes.TrimSpace([]byte(name))) == 0 {
		return false
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// keyIDShape is a key id: a UUID as the store writes it.
var keyIDShape = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// parseKeyRevoke validates {id}.
func parseKeyRevoke(b []byte) (string, error) {
	var body map[string]json.RawMessage
	if err := json.Unmarshal(b, &body); err != nil || body == nil {
		return "", invalidRequest("The body is a JSON object {id}.")
	}
	var id string
	if raw, ok := body["id"]; !ok || json.Unmarshal(raw, &id) != nil || !keyIDShape.MatchString(id) {
		return "", apierror.New(apierror.InvalidKeyID, "id is the id of one of your keys, as GET /api/account/keys lists it.").At("id")
	}
	return id, nil
}

// keyWrite runs the checks of a key write (sessionWrite), then reads its
// body, at most maxKeyBody bytes, and decodes it with parse.
func keyWrite[T any](s *Service, c echo.Context, parse func([]byte) (T, error)) (*identity.Session, T, error) {
	var in T
	sess, err := s.sessionWrite(c, true)
	if err != nil {
		return nil, in, err
	}
	b, err := io.ReadAll(io.LimitReader(c.Request().Body, maxKeyBody+1))
	if err != nil || len(b) > maxKeyBody {
		return nil, in, invalidRequest(fmt.Sprintf("The body could not be read or is over %d bytes.", maxKeyBody))
	}
	in, err = parse(b)
	return sess, in, err
}

// listKeys answers GET /api/account/keys: the caller's keys in this
// product, live or not, newest first.
func (s *Service) listKeys(c echo.Context) error {
	noStore(c)
	sess, err := s.requireSession(c)
	if err != nil {
		return err
	}
	out, err := s.keyRecords(c.Request().Context(), sess)
	if err != nil {
		return err
	}
	return respond.JSON(c, http.StatusOK, map[string][]KeyRecord{"keys": out})
}

// keyRecords are the session user's keys in this product, live or not,
// newest first: the list of GET /api/account/keys and of the account page.
func (s *Service) keyRecords(ctx context.Context, sess *identity.Session) ([]KeyRecord, error) {
	keys, err := s.d.Store.ListAPIKeys(ctx, sess.IdentityID, s.product)
	if err != nil {
		return nil, err
	}
	out := make([]KeyRecord, 0, len(keys))
	for _, k := range keys {
		out = append(out, KeyRecord{
			ID: k.ID, Name: k.Name, OrganizationID: k.OrganizationID, Last4: k.Last4, CreatedAt: timestamp(k.CreatedAt),
			LastUsedAt: optTimestamp(k.LastUsedAt), RevokedAt: optTimestamp(k.RevokedAt), Active: k.Active(),
		})
	}
	return out, nil
}

// createKey answers POST /api/account/keys/create, with the rules of
// contract section 5 in order: a recent sign-in, then for an organization
// key the owner or admin role with this product enabled and a second
// factor, then the limit of live keys (kept by the store).
func (s *Service) createKey(c echo.Context) error {
	sess, in, err := keyWrite(s, c, parseKeyCreate)
	if err != nil {
		return err
	}
	if time.Since(sess.AuthTime) > reauthWindow {
		return apierror.New(apierror.ReauthRequired, "Creating a key needs a sign-in within the last 5 minutes: sign in again at the house, then retry.")
	}
	if in.organizationID != nil {
		if err := organizationMayCreate(sess, *in.organizationID, s.product); err != nil {
			return err
		}
	}
	secret, hash := NewAPIKey()
	k, err := s.d.Store.CreateAPIKey(c.Request().Context(), store.NewAPIKey{
		IdentityID: sess.IdentityID, Product: s.product, OrganizationID: in.organizationID,
		Name: in.name, SecretHash: hash, Last4: secret[len(secret)-4:],
	})
	if errors.Is(err, store.ErrKeyLimit) {
		return apierror.New(apierror.KeyLimitReached, fmt.Sprintf("You already hold %d live keys in this product: revoke one first.", store.LiveKeyLimit))
	}
	if err != nil {
		return err
	}
	return respond.JSON(c, http.StatusOK, KeyCreated{Secret: secret, Key: NewKey{
		ID: k.ID, Name: k.Name, OrganizationID: k.OrganizationID, Last4: k.Last4, CreatedAt: timestamp(k.CreatedAt),
	}})
}

// organizationMayCreate applies rule 2: the caller is the organization's
// owner or admin, the organization has this product enabled, and the
// session used a second factor.
func organizationMayCreate(sess *identity.Session, orgID, product string) error {
	m, ok := sess.Membership(orgID)
	if !ok {
		return apierror.New(apierror.InvalidOrganization, "organizationId is not an organization you belong to.").At("organizationId")
	}
	enabled := false
	for _, p := range m.Products {
		enabled = enabled || p == product
	}
	if (m.Role != identity.RoleOwner && m.Role != identity.RoleAdmin) || !enabled {
		return apierror.New(apierror.OrganizationForbidden, "An organization key needs the owner or admin role in an organization with this product enabled.")
	}
	if !sess.SecondFactor() {
		return apierror.New(apierror.OrganizationMFARequired, "An organization key needs a second factor in this session: sign in again with it, then retry.")
	}
	return nil
}

// revokeKey answers POST /api/account/keys/revoke; revoking again is
// harmless, and a key of another account is key_not_found.
func (s *Service) revokeKey(c echo.Context) error {
	sess, id, err := keyWrite(s, c, parseKeyRevoke)
	if err != nil {
		return err
	}
	err = s.d.Store.RevokeAPIKey(c.Request().Context(), sess.IdentityID, s.product, id)
	if errors.Is(err, store.ErrKeyNotFound) {
		return apierror.New(apierror.KeyNotFound, "You have no key with that id.").At("id")
	}
	if err != nil {
		return err
	}
	return respond.JSON(c, http.StatusOK, okAnswer{OK: true})
}

// NewAPIKey returns a new key and the SHA-256 the store keeps. The secret
// has 256 random bits, so a fast hash is enough to keep it from being
// read back.
func NewAPIKey() (secret string, hash []byte) {
	raw := make([]byte, 32)
	rand.Read(raw)
	secret = apiKeyPrefix + b64.EncodeToString(raw)
	return secret, apiKeyHash(secret)
}

func apiKeyHash(key string) []byte {
	h := sha256.Sum256([]byte(key))
	return h[:]
}
