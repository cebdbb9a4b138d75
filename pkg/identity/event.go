package identity

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Event types the identity service sends (keys of the events claim, as in a
// Security Event Token, RFC 8417).
const (
	EventPasswordChanged = "urn:house:identity:event:password-changed"
	EventSessionsEnded   = "urn:house:identity:event:sessions-ended"
	EventPictureChanged  = "urn:house:identity:event:picture-changed"
)

// EventMaxAge is how old an event may be when it arrives.
const EventMaxAge = time.Hour

// EventClaims are the claims of an identity event: iss, aud, iat, jti, sub
// (the identity) and events, an object with exactly one event type as its
// key. The picture-changed event's payload is {"webp": "<base64>"}, or
// {"webp": null} when the picture was removed.
type EventClaims struct {
	jwt.RegisteredClaims
	Events map[string]json.RawMessage `json:"events"`
}

// PicturePayload is the payload of EventPictureChanged.
type PicturePayload struct {
	WebP *string `json:"webp"` // standard base64; null removes the picture
}

// Event is a verified identity event.
type Event struct {
	ID         string // jti
	IdentityID string
	Type       string
	IssuedAt   time.Time
	Picture    []byte // EventPictureChanged: the new picture, nil when removed
}

// Event verifies an identity event: its signature and registered claims as
// a session's, typ secevent+jwt, a jti, a subject, one known event type,
// an iat at most EventMaxAge old, and for a picture a WebP image
// (CheckPicture). The error is ErrUnavailable or wraps ErrInvalid.
func (v *Verifier) Event(ctx context.Context, raw string) (Event, error) {
	var c EventClaims
	if err := v.parse(ctx, raw, &c, TypeEvent); err != nil {
		return Event{}, err
	}
	switch {
	case c.ID == "" || len(c.ID) > 200:
		return Event{}, fmt.Errorf("%w: jti missing or too long", ErrInvalid)
	case c.Subject == "" || len(c.Subject) > 200:
		return Event{}, fmt.Errorf("%w: sub missing or too long", ErrInvalid)
	case len(c.Events) != 1:
		return Event{}, fmt.Errorf("%w: %d events, want one", ErrInvalid, len(c.Events))
	case c.IssuedAt.Time.Before(v.now().Add(-EventMaxAge)):
		return Event{}, fmt.Errorf("%w: the event is older than %v", ErrInvalid, EventMaxAge)
	}
	ev := Event{ID: c.ID, IdentityID: c.Subject, IssuedAt: c.IssuedAt.Time.UTC()}
	for typ, payload := range c.Events {
		ev.Type = typ
		switch typ {
		case EventPasswordChanged, EventSessionsEnded:
		case EventPictureChanged:
			var p PicturePayload
			if err := json.Unmarshal(payload, &p); err != nil {
				return Event{}, fmt.Errorf("%w: picture payload: %v", ErrInvalid, err)
			}
			if p.WebP != nil {
				b, err := base64.StdEncoding.DecodeString(*p.WebP)
				if err != nil {
					return Event{}, fmt.Errorf("%w: picture is not base64", ErrInvalid)
				}
				if err := CheckPicture(b); err != nil {
					return Event{}, fmt.Errorf("%w: %v", ErrInvalid, err)
				}
				ev.Picture = b
			}
		default:
			return Event{}, fmt.Errorf("%w: unknown event type %q", ErrInvalid, typ)
		}
	}
	return ev, nil
}
