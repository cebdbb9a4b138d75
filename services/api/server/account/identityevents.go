package account

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/identity"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// IdentityEventsPath is where the identity service pushes its events.
const IdentityEventsPath = "/api/auth/events"

// maxEventBody caps an event: a 64 KiB picture in base64 and its claims.
const maxEventBody = 128 << 10

// EventAck is the answer of an accepted event; applied is false for an
// event already received (by its jti), which changes nothing again.
type EventAck struct {
	OK      bool `json:"ok"`
	Applied bool `json:"applied"`
}

// postIdentityEvent answers POST /api/auth/events: the identity service
// pushes a Security Event Token (RFC 8417; typ secevent+jwt, the body
// itself, as in RFC 8935) signed with the same keys as its sessions.
//
//   - password-changed and sessions-ended end every session of the identity
//     issued before the event, here, and make every API key of the identity
//     inactive (contract 3.3);
//   - picture-changed replaces the identity's picture (GET
//     /api/account/avatar), or removes it.
func (s *Service) postIdentityEvent(c echo.Context) error {
	b, err := io.ReadAll(io.LimitReader(c.Request().Body, maxEventBody+1))
	if err != nil {
		return invalidEvent("The body could not be read.")
	}
	if len(b) > maxEventBody {
		return apierror.New(apierror.BodyTooLarge, fmt.Sprintf("The body is over %d bytes.", maxEventBody))
	}
	ev, err := s.verifier.Event(c.Request().Context(), strings.TrimSpace(string(b)))
	if errors.Is(err, identity.ErrUnavailable) {
		return apierror.New(apierror.AuthUnavailable, "The identity service's keys cannot be reached and none are cached; send the event again later.")
	}
	if err != nil {
		return invalidEvent("The body is not a valid identity event of this product: " + strings.TrimPrefix(err.Error(), "identity: invalid token: "))
	}
	change := store.IdentityEvent{JTI: ev.ID, IdentityID: ev.IdentityID, Kind: ev.Type, At: ev.IssuedAt}
	switch ev.Type {
	case identity.EventPasswordChanged, identity.EventSessionsEnded:
		change.EndSessions, change.StopKeys = true, true
	case identity.EventPictureChanged:
		change.SetAvatar, change.Avatar = true, ev.Picture
	}
	applied, err := s.d.Store.ApplyIdentityEvent(c.Request().Context(), change)
	if err != nil {
		return err
	}
	return respond.JSON(c, http.StatusAccepted, EventAck{OK: true, Applied: applied})
}

func invalidEvent(message string) error {
	return apierror.New(apierror.InvalidEvent, message)
}
