package server

import (
	"net/http"
)

// Error names of the full variant's account routes (contract section 7 gives
// most of them; invalid_api_key and invalid_event are ours).
const (
	errInvalidSession          = "invalid_session"           // 401: no session, or not a valid one of this product
	errAuthUnavailable         = "auth_unavailable"          // 503: the identity keys cannot be had
	errInvalidRequest          = "invalid_request"           // 400: a body or query the route does not take
	errInvalidOrigin           = "invalid_origin"            // 403: a write not from this service's own origin
	errInvalidCSRF             = "invalid_csrf"              // 403: no CSRF token, or not this browser's and session's
	errReauthRequired          = "reauth_required"           // 401: signed in more than 5 minutes ago
	errOrganizationMFARequired = "organization_mfa_required" // 403: an organization key needs a second factor
	errOrganizationForbidden   = "organization_forbidden"    // 403: not owner or admin, or the product not enabled
	errKeyLimitReached         = "key_limit_reached"         // 409: 10 live keys already
	errInvalidKeyName          = "invalid_key_name"          // 400: name missing, empty or over 60 characters
	errInvalidOrganization     = "invalid_organization"      // 400: organizationId missing, malformed, or not the caller's
	errInvalidKeyID            = "invalid_key_id"            // 400: id missing or not a key id
	errKeyNotFound             = "key_not_found"             // 404: no such key of the caller
	errInvalidAPIKey           = "invalid_api_key"           // 401: an API key that is unknown, revoked, inactive or of another product
	errInvalidEvent            = "invalid_event"             // 400: an identity event that does not verify
)

// accountError is an error answer of the account routes.
func accountError(status int, name, message string) error {
	return &apiError{status, ErrorBody{Error: name, Message: message}}
}

func invalidSession() error {
	return accountError(http.StatusUnauthorized, errInvalidSession,
		"No valid session of this product: sign in at the house, then retry.")
}

func authUnavailable() error {
	return accountError(http.StatusServiceUnavailable, errAuthUnavailable,
		"The identity service's keys cannot be reached and none are cached; your session is kept, retry later.")
}

func invalidRequest(message string) error {
	return accountError(http.StatusBadRequest, errInvalidRequest, message)
}

func invalidOrigin(message string) error {
	return accountError(http.StatusForbidden, errInvalidOrigin, message)
}

func invalidCSRF() error {
	return accountError(http.StatusForbidden, errInvalidCSRF,
		"The X-CSRF-Token header is missing or was not issued to this browser and session; GET /api/auth/bootstrap for a fresh one.")
}

func invalidAPIKey(message string) error {
	return accountError(http.StatusUnauthorized, errInvalidAPIKey, message)
}

func fieldError(status int, name, field, message string) error {
	return &apiError{status, ErrorBody{Error: name, Message: message, Field: field}}
}
