// Package respond is the API's response module: how a JSON answer is
// encoded and written, its validators and conditional answers (304), its
// compression, and how an error becomes its answer (the Echo error
// handler). Which status and body an error answers with is package
// apierror's; this package only writes them.
package respond

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/x402"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// Content types of the text answers.
const (
	MIMEMarkdown = "text/markdown; charset=utf-8"
	MIMEText     = "text/plain; charset=utf-8"
	MIMEHTML     = "text/html; charset=utf-8"
)

// JSON writes v as the JSON body of a status answer. HTML escaping is off,
// so URLs keep their "&".
func JSON(c echo.Context, status int, v any) error {
	b, err := Marshal(v)
	if err != nil {
		return err
	}
	return c.Blob(status, echo.MIMEApplicationJSON, b)
}

// Marshal encodes v as JSON without HTML escaping.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// paymentRequired is the 402 answer: the x402 v1 body (x402Version,
// error, accepts[]) with the API's message beside it, and the v2
// PAYMENT-REQUIRED header.
type paymentRequired struct {
	X402Version int    `json:"x402Version"`
	Error       string `json:"error"`
	Message     string `json:"message"`
	Accepts     any    `json:"accepts"`
}

// Error is the Echo error handler: it writes the answer apierror.Response
// chose, with Retry-After on an unavailable answer or one that names its
// wait, and a 402's offer. Logging is left to the request log, so each
// failure is logged once.
func Error(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status, body, _ := apierror.Response(err)
	var ae *apierror.Error
	errors.As(err, &ae)
	h := c.Response().Header()
	if ae != nil && ae.RetryAfter > 0 {
		h.Set("Retry-After", RetryAfterSeconds(ae.RetryAfter))
	} else if body.Error == apierror.Unavailable {
		h.Set("Retry-After", apierror.DefaultRetryAfter)
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(status)
		return
	}
	// A 402, and the contact backoff's 429, carry the offer: a stock x402
	// client pays at once.
	if ae != nil && ae.Offer != nil && (status == http.StatusPaymentRequired || status == http.StatusTooManyRequests) {
		h.Set(x402.HeaderRequiredV2, x402.RequiredHeader(*ae.Offer, body.Message))
		h.Set("Cache-Control", "no-store")
		_ = JSON(c, status, paymentRequired{X402Version: 1, Error: body.Error, Message: body.Message,
			Accepts: x402.NewRequired(*ae.Offer, body.Message).Accepts})
		return
	}
	_ = JSON(c, status, body)
}

// RetryAfterSeconds is the Retry-After value of a wait: whole seconds,
// rounded up, at least 1.
func RetryAfterSeconds(d time.Duration) string {
	return strconv.FormatInt(max(1, int64((d+time.Second-1)/time.Second)), 10)
}
