// Package x402 speaks the x402 payment protocol (PROTOCOLS.md) for the full
// variant: the 402 answer with accepts[], the payment a client sends back
// (protocol v1 in X-PAYMENT, v2 in PAYMENT-SIGNATURE), the check of that
// payment against the requirement that was offered, the facilitator's
// /verify and /settle, and the settlement header. Scheme exact, USDC on
// Base or Base Sepolia, amounts in atomic units (6 decimals, so one atomic
// unit is one micro-dollar: money stays an integer end to end).
//
// It owns no storage: the replay refusal (a payment's nonce recorded once)
// is the store's, called by the server between verify and settle.
package x402

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Header names of both protocol versions.
const (
	HeaderPaymentV1         = "X-PAYMENT"
	HeaderPaymentResponseV1 = "X-PAYMENT-RESPONSE"
	HeaderRequiredV2        = "PAYMENT-REQUIRED"
	HeaderPaymentV2         = "PAYMENT-SIGNATURE"
	HeaderPaymentResponseV2 = "PAYMENT-RESPONSE"
)

// SchemeExact is the only scheme offered: a fixed amount (EIP-3009
// transferWithAuthorization of USDC).
const SchemeExact = "exact"

// MaxTimeoutSeconds is how long a client has between the 402 and its
// payment's settlement.
const MaxTimeoutSeconds = 300

// ClockSkewSeconds is how far a client's clock may run ahead: a payment
// may stay valid at most MaxTimeoutSeconds plus this from now.
const ClockSkewSeconds = 30

// Network is the fixed facts of one EVM network (PROTOCOLS.md).
type Network struct {
	Name    string // v1 name: base, base-sepolia
	CAIP2   string // v2 name: eip155:<chain id>
	ChainID int64
	USDC    string // token contract
	// EIP712Name and EIP712Version are the USDC contract's EIP-712 domain.
	EIP712Name, EIP712Version string
	Faucet                    string // test tokens; "" on mainnet
}

// Networks are the two networks the service accepts, by v1 name.
var Networks = map[string]Network{
	"base": {Name: "base", CAIP2: "eip155:8453", ChainID: 8453,
		USDC: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", EIP712Name: "USD Coin", EIP712Version: "2"},
	"base-sepolia": {Name: "base-sepolia", CAIP2: "eip155:84532", ChainID: 84532,
		USDC: "0x036CbD53842c5426634e7929541eC2318f3dCF7e", EIP712Name: "USDC", EIP712Version: "2",
		Faucet: "https://faucet.circle.com/"},
}

// Requirement is one entry of accepts[]: what the client must pay for one
// call. The same value is written in v1 form (network name,
// maxAmountRequired) or v2 form (CAIP-2 network, amount).
type Requirement struct {
	Network     Network
	AmountMicro int64  // atomic USDC units (= micro-dollars)
	PayTo       string // receiving address
	Resource    string // absolute URL of the paid call
	Description string
}

// wireRequirement is an accepts[] entry on the wire, both versions.
type wireRequirement struct {
	Scheme            string            `json:"scheme"`
	Network           string            `json:"network"`
	MaxAmountRequired string            `json:"maxAmountRequired,omitempty"` // v1
	Amount            string            `json:"amount,omitempty"`            // v2
	Asset             string            `json:"asset"`
	PayTo             string            `json:"payTo"`
	Resource          string            `json:"resource,omitempty"` // v1
	Description       string            `json:"description,omitempty"`
	MimeType          string            `json:"mimeType,omitempty"`
	MaxTimeoutSeconds int               `json:"maxTimeoutSeconds"`
	Extra             map[string]string `json:"extra"`
}

func (r Requirement) wire(version int) wireRequirement {
	w := wireRequirement{
		Scheme: SchemeExact, Asset: r.Network.USDC, PayTo: r.PayTo, MaxTimeoutSeconds: MaxTimeoutSeconds,
		Extra: map[string]string{"name": r.Network.EIP712Name, "version": r.Network.EIP712Version},
	}
	amount := strconv.FormatInt(r.AmountMicro, 10)
	if version == 2 {
		w.Network, w.Amount = r.Network.CAIP2, amount
	} else {
		w.Network, w.MaxAmountRequired = r.Network.Name, amount
		w.Resource, w.Description, w.MimeType = r.Resource, r.Description, "application/json"
	}
	return w
}

// Required is the body of a 402 answer: v1 fields with accepts[] in v1
// form, which v1 clients read; v2 clients read the PAYMENT-REQUIRED header.
type Required struct {
	X402Version int               `json:"x402Version"`
	Error       string            `json:"error"`
	Accepts     []wireRequirement `json:"accepts"`
}

// requiredV2 is the PAYMENT-REQUIRED header's document.
type requiredV2 struct {
	X402Version int               `json:"x402Version"`
	Error       string            `json:"error"`
	Resource    resourceV2        `json:"resource"`
	Accepts     []wireRequirement `json:"accepts"`
}

type resourceV2 struct {
	URL         string `json:"url"`
	Description string `json:"description"`
	MimeType    string `json:"mimeType"`
}

// NewRequired is the 402 body offering r, with a one-sentence reason.
func NewRequired(r Requirement, reason string) Required {
	return Required{X402Version: 1, Error: reason, Accepts: []wireRequirement{r.wire(1)}}
}

// RequiredHeader is the v2 PAYMENT-REQUIRED header value offering r:
// base64 of the JSON document.
func RequiredHeader(r Requirement, reason string) string {
	b, _ := json.Marshal(requiredV2{X402Version: 2, Error: reason,
		Resource: resourceV2{URL: r.Resource, Description: r.Description, MimeType: "application/json"},
		Accepts:  []wireRequirement{r.wire(2)}})
	return base64.StdEncoding.EncodeToString(b)
}

// Authorization is the EIP-3009 transferWithAuthorization the client
// signed. Values are decimal strings (uint256), the nonce 32 bytes hex.
type Authorization struct {
	From        string `json:"from"`
	To          string `json:"to"`
	Value       string `json:"value"`
	ValidAfter  string `json:"validAfter"`
	ValidBefore string `json:"validBefore"`
	Nonce       string `json:"nonce"`
}

// ExactPayload is the payload of the exact scheme on EVM.
type ExactPayload struct {
	Signature     string        `json:"signature"`
	Authorization Authorization `json:"authorization"`
}

// SignedPayment is a decoded payment header, either version. Raw is the JSON
// document as the client sent it, forwarded to the facilitator unchanged.
type SignedPayment struct {
	Version  int
	Scheme   string
	Network  string // as sent: a v1 name or a CAIP-2 id
	Payload  ExactPayload
	Accepted *wireRequirement // v2: the requirement the client chose
	Raw      json.RawMessage
}

// wirePayment is a payment header's document, both versions.
type wirePayment struct {
	X402Version int              `json:"x402Version"`
	Scheme      string           `json:"scheme"`   // v1
	Network     string           `json:"network"`  // v1
	Accepted    *wireRequirement `json:"accepted"` // v2
	Payload     *ExactPayload    `json:"payload"`
}

// maxHeader bounds a payment header before decoding.
const maxHeader = 8 << 10

// ErrMalformed is a payment header that cannot be decoded.
var ErrMalformed = errors.New("x402: malformed payment header")

// FromRequest reads the payment of a request: PAYMENT-SIGNATURE (v2) or
// X-PAYMENT (v1). ok is false when neither header is present.
func FromRequest(h http.Header) (p SignedPayment, ok bool, err error) {
	v := h.Get(HeaderPaymentV2)
	if v == "" {
		v = h.Get(HeaderPaymentV1)
	}
	if v == "" {
		return SignedPayment{}, false, nil
	}
	p, err = Decode(v)
	return p, true, err
}

// Decode parses one payment header value: base64 (standard or URL, padded
// or not) of a v1 or v2 payment document.
func Decode(header string) (SignedPayment, error) {
	header = strings.TrimSpace(header)
	if len(header) > maxHeader {
		return SignedPayment{}, fmt.Errorf("%w: over %d bytes", ErrMalformed, maxHeader)
	}
	var raw []byte
	var err error
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if raw, err = enc.DecodeString(header); err == nil {
			break
		}
	}
	if err != nil {
		return SignedPayment{}, fmt.Errorf("%w: not base64", ErrMalformed)
	}
	return DecodeDocument(raw)
}

// DecodeDocument parses a payment document (the JSON a payment header
// carries in base64), as kept while its payment is pending.
func DecodeDocument(raw []byte) (SignedPayment, error) {
	if len(raw) > maxHeader {
		return SignedPayment{}, fmt.Errorf("%w: over %d bytes", ErrMalformed, maxHeader)
	}
	var w wirePayment
	if err := json.Unmarshal(raw, &w); err != nil {
		return SignedPayment{}, fmt.Errorf("%w: not a JSON payment", ErrMalformed)
	}
	p := SignedPayment{Version: w.X402Version, Scheme: w.Scheme, Network: w.Network, Accepted: w.Accepted, Raw: raw}
	switch w.X402Version {
	case 1:
	case 2:
		if w.Accepted == nil {
			return SignedPayment{}, fmt.Errorf("%w: v2 payment without accepted", ErrMalformed)
		}
		p.Scheme, p.Network = w.Accepted.Scheme, w.Accepted.Network
	default:
		return SignedPayment{}, fmt.Errorf("%w: x402Version %d", ErrMalformed, w.X402Version)
	}
	if w.Payload == nil || w.Payload.Signature == "" || w.Payload.Authorization.Nonce == "" {
		return SignedPayment{}, fmt.Errorf("%w: no signed authorization", ErrMalformed)
	}
	p.Payload = *w.Payload
	return p, nil
}

// Mismatch is a payment that does not answer the requirement offered.
type Mismatch struct{ Reason string }

func (m *Mismatch) Error() string { return "x402: payment does not match: " + m.Reason }

// Check compares a decoded payment with the requirement offered, at time
// now: scheme, network, asset (v2), recipient, amount exactly, and the
// authorization's validity window. The signature is the facilitator's to
// verify.
func Check(p SignedPayment, r Requirement, now time.Time) error {
	bad := func(f string, a ...any) error { return &Mismatch{fmt.Sprintf(f, a...)} }
	if p.Scheme != SchemeExact {
		return bad("scheme %q is not exact", p.Scheme)
	}
	if p.Network != r.Network.Name && p.Network != r.Network.CAIP2 {
		return bad("network %q is not %s", p.Network, r.Network.Name)
	}
	if p.Accepted != nil {
		if !strings.EqualFold(p.Accepted.Asset, r.Network.USDC) {
			return bad("asset %s is not USDC on %s", p.Accepted.Asset, r.Network.Name)
		}
		if !strings.EqualFold(p.Accepted.PayTo, r.PayTo) {
			return bad("accepted payTo is not %s", r.PayTo)
		}
	}
	a := p.Payload.Authorization
	if !strings.EqualFold(a.To, r.PayTo) {
		return bad("recipient %s is not %s", a.To, r.PayTo)
	}
	if v, err := strconv.ParseInt(a.Value, 10, 64); err != nil || v != r.AmountMicro {
		return bad("value %q is not %d", a.Value, r.AmountMicro)
	}
	after, err1 := strconv.ParseInt(a.ValidAfter, 10, 64)
	before, err2 := strconv.ParseInt(a.ValidBefore, 10, 64)
	if err1 != nil || err2 != nil {
		return bad("validity window is not two integers")
	}
	if t := now.Unix(); t < after || t >= before {
		return bad("outside its validity window")
	}
	if before-now.Unix() > MaxTimeoutSeconds+ClockSkewSeconds {
		return bad("valid for longer than the offer's maxTimeoutSeconds (%d s) allows", MaxTimeoutSeconds)
	}
	if !isHex(a.Nonce, 32) || !isHex(a.From, 20) || !isHex(p.Payload.Signature, 65) {
		return bad("nonce, payer or signature out of shape")
	}
	return nil
}

// isHex reports whether s is 0x and n bytes of hex.
func isHex(s string, n int) bool {
	if len(s) != 2+2*n || !strings.HasPrefix(s, "0x") {
		return false
	}
	for _, c := range s[2:] {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}

// Nonce is the payment's replay key: payer and nonce of its signed
// authorization, "from:nonce", lowercased (one EIP-3009 nonce spends once
// per payer and token; across payers the nonce is random 32 bytes).
func (p SignedPayment) Nonce() string {
	return strings.ToLower(p.Payload.Authorization.From + ":" + p.Payload.Authorization.Nonce)
}

// Payer is the address that signed the payment, lowercased.
func (p SignedPayment) Payer() string { return strings.ToLower(p.Payload.Authorization.From) }

// Signature is the payment's signature, 65 bytes; nil when it is not hex.
func (p SignedPayment) Signature() []byte {
	b, err := hex.DecodeString(strings.TrimPrefix(p.Payload.Signature, "0x"))
	if err != nil {
		return nil
	}
	return b
}

// NetworkFor is the settlement's network name for protocol version: the
// CAIP-2 id in v2, the v1 name otherwise.
func (n Network) NetworkFor(version int) string {
	if version == 2 {
		return n.CAIP2
	}
	return n.Name
}

// ResponseHeader is the header name of the settlement for the payment's
// version.
func (p SignedPayment) ResponseHeader() string {
	if p.Version == 2 {
		return HeaderPaymentResponseV2
	}
	return HeaderPaymentResponseV1
}

// EncodeSettlement is a settlement response header value: base64 JSON.
func EncodeSettlement(s Settlement) string {
	b, _ := json.Marshal(s)
	return base64.StdEncoding.EncodeToString(b)
}

// AcceptedV2 is r as a v2 accepts[] entry, JSON: what a v2 client copies
// into its payment's accepted.
func AcceptedV2(r Requirement) []byte {
	b, _ := json.Marshal(r.wire(2))
	return b
}
