// Package identity speaks to the house's identity service for the full
// variant: it verifies the global session (a JWT in the __Host-house-auth
// cookie) and the identity service's signed events, both with golang-jwt/v5,
// one pinned algorithm (EdDSA or ES256; none, HMAC and RSA refused), the
// configured issuer and audience, a small leeway on expiry and no iat in the
// future. The public keys come from a JWKS URL, fetched, cached and
// refreshed by keyfunc/v3, or from a JWKS file.
//
// It also signs: Signer mints sessions and events with a development key
// (okfctl session, the tests' identity stand-in in pkg/identitytest). The
// service itself never signs.
//
// It holds no state of its own and no SQL: whether a verified session was
// revoked is the store's business (pkg/store, sessions.go).
//
// Files:
//
//	keys.go     KeySource: the identity service's public keys, and when they are unavailable
//	session.go  Verifier.Session: the claims of a session, verified
//	event.go    Verifier.Event: the identity service's signed events, verified
//	picture.go  CheckPicture: the WebP rule of an account's picture
//	signer.go   Signer: development keys, minting sessions and events
package identity
