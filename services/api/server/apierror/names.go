package apierror

import "net/http"

// The error names of the API, grouped by the routes that answer them.
const (
	// Any route.
	InvalidParameter     = "invalid_parameter"
	UnsupportedParameter = "unsupported_parameter"
	NotFound             = "not_found"
	MethodNotAllowed     = "method_not_allowed"
	Internal             = "internal_error"
	Unavailable          = "unavailable"
	HeadersTooLarge      = "headers_too_large"

	// Any request Go's HTTP server cannot read, before routing (package
	// protoerr); a malformed one is InvalidRequest.
	UnsupportedTransferCoding = "unsupported_transfer_coding" // a Transfer-Encoding other than chunked
	UnsupportedHTTPVersion    = "unsupported_http_version"    // a request line not HTTP/1.0 or HTTP/1.1

	// Search, the change feed and the repository status.
	QueryTooCostly      = "query_too_costly"
	QueryExcludesItself = "query_excludes_itself"
	InvalidRepo         = "invalid_repo"   // GET /api/status without a valid owner/repo
	CursorExpired       = "cursor_expired" // GET /api/changes: since older than the retained events

	// The operator token's (GET /api/metrics, the vitrine operator routes).
	InvalidToken           = "invalid_token"            // no token where one is required, or not the operator token
	TokenNotConfigured     = "token_not_configured"     // a token sent, but the service has none to compare
	CollectorNotConfigured = "collector_not_configured" // the operator views, with VITRINE_COLLECTOR=off

	// POST /api/ping, and the body of POST /api/identity/events.
	InvalidBody         = "invalid_body"           // not a JSON object, or a field of the wrong type
	InvalidHost         = "invalid_host"           // host missing or not a domain name
	InvalidKey          = "invalid_key"            // key not 8-128 of [a-zA-Z0-9-]
	InvalidURLList      = "invalid_url_list"       // urlList missing, empty or over 100
	URLNotHTTPS         = "url_not_https"          // a URL is not an absolute https URL
	URLNotMarkdown      = "url_not_markdown"       // a URL does not end in .md
	URLOffHost          = "url_off_host"           // a URL lives on another host
	KeyLocationNotHTTPS = "key_location_not_https" // keyLocation is not an absolute https URL
	KeyLocationOffHost  = "key_location_off_host"  // keyLocation lives on another host
	DailyCapReached     = "daily_cap_reached"      // the host's URLs accepted today are at the cap
	BodyTooLarge        = "body_too_large"         // body over the route's cap
	RateLimited         = "rate_limited"           // this client sent more than PING_RATE_PER_MINUTE

	// The account routes of the full variant (contract section 7 gives most
	// of them; invalid_api_key and invalid_event are ours).
	InvalidSession          = "invalid_session"           // no session, or not a valid one of this product
	AuthUnavailable         = "auth_unavailable"          // the identity keys cannot be had
	InvalidRequest          = "invalid_request"           // a body or query the route does not take; a request Go cannot read
	InvalidOrigin           = "invalid_origin"            // a write not from this service's own origin
	InvalidCSRF             = "invalid_csrf"              // no CSRF token, or not this browser's and session's
	ReauthRequired          = "reauth_required"           // signed in too long ago for this write
	OrganizationMFARequired = "organization_mfa_required" // an organization key needs a second factor
	OrganizationForbidden   = "organization_forbidden"    // not owner or admin, or the product not enabled
	KeyLimitReached         = "key_limit_reached"         // the live keys are at the cap
	InvalidKeyName          = "invalid_key_name"          // name missing, empty or too long
	InvalidOrganization     = "invalid_organization"      // organizationId missing, malformed, or not the caller's
	InvalidKeyID            = "invalid_key_id"            // id missing or not a key id
	KeyNotFound             = "key_not_found"             // no such key of the caller
	InvalidAPIKey           = "invalid_api_key"           // an API key that is unknown, revoked, inactive or of another product
	InvalidEvent            = "invalid_event"             // an identity event that does not verify

	// POST /api/contact.
	MissingField       = "missing_field"
	InvalidField       = "invalid_field"
	InvalidCaptcha     = "invalid_captcha"
	ContactUnavailable = "contact_unavailable"
	ContactBackoff     = "contact_backoff"

	// Credit and payments.
	InvalidPackage     = "invalid_package"
	InvalidCredit      = "invalid_credit"
	PaymentRequired    = "payment_required"
	PaymentInvalid     = "payment_invalid"
	PaymentReplayed    = "payment_replayed"
	PaymentUnavailable = "payment_unavailable"
)

// statuses is the one table of error names and the status each answers
// with. A name not in it answers 500 (TestEveryNameHasARow reads the
// constants above, TestTableMatchesOpenAPI the document).
var statuses = map[string]int{
	InvalidParameter:     http.StatusBadRequest,
	UnsupportedParameter: http.StatusBadRequest,
	NotFound:             http.StatusNotFound,
	MethodNotAllowed:     http.StatusMethodNotAllowed,
	Internal:             http.StatusInternalServerError,
	Unavailable:          http.StatusServiceUnavailable,
	HeadersTooLarge:      http.StatusRequestHeaderFieldsTooLarge,

	UnsupportedTransferCoding: http.StatusNotImplemented,
	UnsupportedHTTPVersion:    http.StatusHTTPVersionNotSupported,

	QueryTooCostly:      http.StatusUnprocessableEntity,
	QueryExcludesItself: http.StatusBadRequest,
	InvalidRepo:         http.StatusBadRequest,
	CursorExpired:       http.StatusGone,

	InvalidToken:           http.StatusUnauthorized,
	TokenNotConfigured:     http.StatusServiceUnavailable,
	CollectorNotConfigured: http.StatusServiceUnavailable,

	InvalidBody:         http.StatusBadRequest,
	InvalidHost:         http.StatusBadRequest,
	InvalidKey:          http.StatusBadRequest,
	InvalidURLList:      http.StatusBadRequest,
	URLNotHTTPS:         http.StatusUnprocessableEntity,
	URLNotMarkdown:      http.StatusUnprocessableEntity,
	URLOffHost:          http.StatusUnprocessableEntity,
	KeyLocationNotHTTPS: http.StatusUnprocessableEntity,
	KeyLocationOffHost:  http.StatusUnprocessableEntity,
	DailyCapReached:     http.StatusTooManyRequests,
	BodyTooLarge:        http.StatusRequestEntityTooLarge,
	RateLimited:         http.StatusTooManyRequests,

	InvalidSession:          http.StatusUnauthorized,
	AuthUnavailable:         http.StatusServiceUnavailable,
	InvalidRequest:          http.StatusBadRequest,
	InvalidOrigin:           http.StatusForbidden,
	InvalidCSRF:             http.StatusForbidden,
	ReauthRequired:          http.StatusUnauthorized,
	OrganizationMFARequired: http.StatusForbidden,
	OrganizationForbidden:   http.StatusForbidden,
	KeyLimitReached:         http.StatusConflict,
	InvalidKeyName:          http.StatusBadRequest,
	InvalidOrganization:     http.StatusBadRequest,
	InvalidKeyID:            http.StatusBadRequest,
	KeyNotFound:             http.StatusNotFound,
	InvalidAPIKey:           http.StatusUnauthorized,
	InvalidEvent:            http.StatusBadRequest,

	MissingField:       http.StatusBadRequest,
	InvalidField:       http.StatusBadRequest,
	InvalidCaptcha:     http.StatusBadRequest,
	ContactUnavailable: http.StatusServiceUnavailable,
	ContactBackoff:     http.StatusTooManyRequests,

	InvalidPackage:     http.StatusBadRequest,
	InvalidCredit:      http.StatusUnauthorized,
	PaymentRequired:    http.StatusPaymentRequired,
	PaymentInvalid:     http.StatusPaymentRequired,
	PaymentReplayed:    http.StatusPaymentRequired,
	PaymentUnavailable: http.StatusServiceUnavailable,
}

// StatusOf is the status a named error answers with; 500 for a name not in
// the table.
func StatusOf(name string) int {
	if s, ok := statuses[name]; ok {
		return s
	}
	return http.StatusInternalServerError
}
