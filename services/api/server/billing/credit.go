package billing

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/settle"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// Prepaid credit of the full variant (contract 2.8, 4.6, 5): bought with
// an x402 payment, held by a bearer token cred_<secret> of which only the
// SHA-256 is stored, spent by the paid routes of every product of the
// house.

// A credit token is CreditPrefix and 32 random bytes, base64url without
// padding (43 characters); CreditHeader carries one besides
// Authorization: Bearer.
// (package settle makes them).
const (
	CreditPrefix   = settle.TokenPrefix
	CreditTokenLen = settle.TokenLen
	CreditHeader   = "X-Credito"
)

// CreditHash is the stored form of a credit token.
func CreditHash(token string) []byte { return settle.Hash(token) }

// CreditToken returns the credit token a request's headers h present:
// Authorization: Bearer cred_... or X-Credito. ok is false when none is.
func CreditToken(h http.Header) (token string, ok bool) {
	if v := strings.TrimSpace(h.Get(CreditHeader)); v != "" {
		return v, true
	}
	scheme, cred, found := strings.Cut(h.Get(echo.HeaderAuthorization), " ")
	cred = strings.TrimSpace(cred)
	if found && strings.EqualFold(scheme, "Bearer") && strings.HasPrefix(cred, CreditPrefix) {
		return cred, true
	}
	return "", false
}

// InvalidCredit is the 401 of a credit token missing or unknown.
func InvalidCredit(message string) error {
	return apierror.New(apierror.InvalidCredit, message)
}
