package server

import "github.com/okfindex/okf-index/services/api/server/apierror"

func invalidSession() error {
	return apierror.New(apierror.InvalidSession, "No valid session of this product: sign in at the house, then retry.")
}

func authUnavailable() error {
	return apierror.New(apierror.AuthUnavailable, "The identity service's keys cannot be reached and none are cached; your session is kept, retry later.")
}

func invalidRequest(message string) error {
	return apierror.New(apierror.InvalidRequest, message)
}

func invalidOrigin(message string) error {
	return apierror.New(apierror.InvalidOrigin, message)
}

func invalidCSRF() error {
	return apierror.New(apierror.InvalidCSRF, "The X-CSRF-Token header is missing or was not issued to this browser and session; GET /api/auth/bootstrap for a fresh one.")
}

func invalidAPIKey(message string) error {
	return apierror.New(apierror.InvalidAPIKey, message)
}
