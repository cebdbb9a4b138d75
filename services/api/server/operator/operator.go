// Package operator checks the operator token (METRICS_TOKEN) of the
// routes that show the operator more than the public: GET /api/metrics's
// finance block and the vitrine's operator views. The comparison is
// pkg/ops's, the one River UI uses.
package operator

import (
	"errors"

	"github.com/okfindex/okf-index/pkg/ops"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// Check checks an Authorization header against token: false for none; true
// for the operator token, as a Bearer credential; an error for anything
// else (401 invalid_token, or 503 token_not_configured when the service
// has no token to compare).
func Check(token, authorization string) (bool, error) {
	if authorization == "" {
		return false, nil
	}
	bearer, _ := ops.BearerToken(authorization) // another scheme presents no token
	switch err := ops.CheckToken(token, bearer); {
	case errors.Is(err, ops.ErrTokenNotConfigured):
		return false, apierror.New(apierror.TokenNotConfigured,
			"This service has no operator token configured; send no Authorization header for the public numbers.")
	case err != nil:
		return false, apierror.New(apierror.InvalidToken, "The token is not the operator token.")
	}
	return true, nil
}
