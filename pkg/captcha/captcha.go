// Package captcha verifies a captcha response against a siteverify
// endpoint: the POST form {secret, response, remoteip?} answered
// {"success": bool, ...} that Turnstile, hCaptcha and reCAPTCHA share.
// The secret is sent only there and never logged.
package captcha

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Verifier checks captcha responses at URL with Secret.
type Verifier struct {
	URL    string
	Secret string
	Client *http.Client // http.DefaultClient when nil
}

// ErrUnavailable is a siteverify endpoint that did not answer in shape.
var ErrUnavailable = errors.New("captcha: siteverify unavailable")

// Timeout bounds one verification.
const Timeout = 10 * time.Second

// Verify reports whether response is a valid, unused captcha response.
func (v Verifier) Verify(ctx context.Context, response, remoteIP string) (bool, error) {
	form := url.Values{"secret": {v.Secret}, "response": {response}}
	if remoteIP != "" {
		form.Set("remoteip", remoteIP)
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, v.URL, strings.NewReader(form.Encode()))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	client := v.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return false, fmt.Errorf("%w: %v", ErrUnavailable, err) // the error names the URL, never the secret
	}
	defer resp.Body.Close()
	var out struct {
		Success *bool `json:"success"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&out); err != nil || out.Success == nil {
		return false, fmt.Errorf("%w: status %d, answer out of shape", ErrUnavailable, resp.StatusCode)
	}
	return *out.Success, nil
}
