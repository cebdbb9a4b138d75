package x402

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Facilitator is the client of an x402 facilitator: POST /verify and POST
// /settle, each with {x402Version, paymentPayload, paymentRequirements}.
//
// Retries cannot settle twice: a settle is retried only with the same
// payment, whose EIP-3009 authorization (from, nonce) the token contract
// spends at most once, so a retry after a lost answer either settles the
// first time or learns it was settled; the server additionally records the
// nonce before the first settle and grants once per nonce.
type Facilitator struct {
	URL     string // base URL, without a trailing slash
	Client  *http.Client
	Timeout time.Duration // per attempt; DefaultTimeout when 0
	Retries int           // further attempts after a timeout or 5xx; DefaultRetries when 0
}

// Defaults of the facilitator client.
const (
	DefaultTimeout = 10 * time.Second
	DefaultRetries = 2
)

// VerifyResult is the facilitator's answer to /verify.
type VerifyResult struct {
	IsValid       bool   `json:"isValid"`
	InvalidReason string `json:"invalidReason,omitempty"`
	Payer         string `json:"payer,omitempty"`
}

// Settlement is the facilitator's answer to /settle, also the settlement
// response header's document.
type Settlement struct {
	Success     bool   `json:"success"`
	ErrorReason string `json:"errorReason,omitempty"`
	Transaction string `json:"transaction"`
	Network     string `json:"network"`
	Payer       string `json:"payer,omitempty"`
}

// ErrFacilitator is a facilitator that could not be reached or answered
// out of protocol after every attempt.
var ErrFacilitator = errors.New("x402: facilitator unavailable")

type facilitatorRequest struct {
	X402Version         int             `json:"x402Version"`
	PaymentPayload      json.RawMessage `json:"paymentPayload"`
	PaymentRequirements wireRequirement `json:"paymentRequirements"`
}

// Verify asks the facilitator whether p is a valid payment of r.
func (f *Facilitator) Verify(ctx context.Context, p SignedPayment, r Requirement) (VerifyResult, error) {
	var out VerifyResult
	err := f.call(ctx, "/verify", p, r, &out)
	return out, err
}

// Settle asks the facilitator to settle p. The same payment is sent on
// every attempt.
func (f *Facilitator) Settle(ctx context.Context, p SignedPayment, r Requirement) (Settlement, error) {
	var out Settlement
	err := f.call(ctx, "/settle", p, r, &out)
	return out, err
}

func (f *Facilitator) call(ctx context.Context, path string, p SignedPayment, r Requirement, out any) error {
	version := p.Version
	if version == 0 {
		version = 1
	}
	body, err := json.Marshal(facilitatorRequest{X402Version: version, PaymentPayload: p.Raw, PaymentRequirements: r.wire(version)})
	if err != nil {
		return err
	}
	client := f.Client
	if client == nil {
		client = http.DefaultClient
	}
	timeout := f.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	retries := f.Retries
	if retries == 0 {
		retries = DefaultRetries
	}
	var last error
	for attempt := 0; attempt <= retries; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return fmt.Errorf("%w: %s: %w", ErrFacilitator, path, ctx.Err())
			case <-time.After(time.Duration(attempt) * 200 * time.Millisecond):
			}
		}
		retry, err := f.once(ctx, client, timeout, path, body, out)
		if err == nil {
			return nil
		}
		last = err
		if !retry {
			break
		}
	}
	return fmt.Errorf("%w: %s: %w", ErrFacilitator, path, last)
}

// once is one attempt; retry says whether another may help (a timeout, a
// dropped connection, a 5xx).
func (f *Facilitator) once(ctx context.Context, client *http.Client, timeout time.Duration, path string, body []byte, out any) (retry bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(f.URL, "/")+path, bytes.NewReader(body))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return true, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return true, err
	}
	if resp.StatusCode >= 500 {
		return true, fmt.Errorf("status %d", resp.StatusCode)
	}
	// 4xx answers still carry isValid/success false with a reason.
	if err := json.Unmarshal(b, out); err != nil {
		return false, fmt.Errorf("status %d, answer not JSON", resp.StatusCode)
	}
	return false, nil
}
