// Package x402test is a local x402 facilitator for tests: it speaks POST
// /verify and POST /settle as a real facilitator does, and checks the
// EIP-3009 transferWithAuthorization signatures for real (EIP-712 typed
// data, secp256k1 recovery). It reaches no chain: a settlement is a
// recorded transfer, once per (payer, nonce), as the USDC contract allows.
package x402test

import (
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/okfindex/okf-index/pkg/x402"
)

// Facilitator is the stand-in. Its fields may be changed between requests
// under the test's own ordering.
type Facilitator struct {
	*httptest.Server

	mu        sync.Mutex
	transfers map[string]string // "payer:nonce" -> transaction hash
	settles   int               // /settle calls received
	stall     int               // the next stall /settle calls hang for StallFor
	stallFor  time.Duration
	fail500   int // the next fail500 /settle calls answer 500 after settling
	verifies  int // /verify calls received
}

// New starts a stand-in; Close it when done.
func New() *Facilitator {
	f := &Facilitator{transfers: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /verify", f.verify)
	mux.HandleFunc("POST /settle", f.settle)
	f.Server = httptest.NewServer(mux)
	return f
}

// StallSettles makes the next n settles record the transfer and then hang
// for d before answering: a facilitator whose answer is lost to a timeout.
func (f *Facilitator) StallSettles(n int, d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stall, f.stallFor = n, d
}

// FailSettlesAfterSettling makes the next n settles record the transfer
// and then answer 500: a facilitator that moved the money and says it
// failed.
func (f *Facilitator) FailSettlesAfterSettling(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail500 = n
}

// Verifies is how many /verify calls arrived.
func (f *Facilitator) Verifies() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.verifies
}

// Transfers is how many distinct payments were settled (money moved).
func (f *Facilitator) Transfers() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.transfers)
}

// Settles is how many /settle calls arrived, retries included.
func (f *Facilitator) Settles() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.settles
}

type request struct {
	X402Version         int             `json:"x402Version"`
	PaymentPayload      json.RawMessage `json:"paymentPayload"`
	PaymentRequirements struct {
		Scheme            string            `json:"scheme"`
		Network           string            `json:"network"`
		MaxAmountRequired string            `json:"maxAmountRequired"`
		Amount            string            `json:"amount"`
		Asset             string            `json:"asset"`
		PayTo             string            `json:"payTo"`
		Extra             map[string]string `json:"extra"`
	} `json:"paymentRequirements"`
}

// check verifies the request's payment; it returns the payer and the
// replay key, or the invalid reason.
func check(r *http.Request) (payer, key, network, reason string) {
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		return "", "", "", "invalid_request"
	}
	p, err := x402.Decode(base64.StdEncoding.EncodeToString(req.PaymentPayload))
	if err != nil {
		return "", "", "", "invalid_payload"
	}
	pr := req.PaymentRequirements
	var net x402.Network
	for _, n := range x402.Networks {
		if pr.Network == n.Name || pr.Network == n.CAIP2 {
			net = n
		}
	}
	if net.Name == "" || !strings.EqualFold(pr.Asset, net.USDC) {
		return "", "", "", "invalid_network"
	}
	a := p.Payload.Authorization
	amount := pr.Amount + pr.MaxAmountRequired
	if a.Value != amount {
		return "", "", "", "invalid_exact_evm_payload_authorization_value"
	}
	if !strings.EqualFold(a.To, pr.PayTo) {
		return "", "", "", "invalid_exact_evm_payload_recipient_mismatch"
	}
	now := time.Now().Unix()
	after, _ := strconv.ParseInt(a.ValidAfter, 10, 64)
	before, _ := strconv.ParseInt(a.ValidBefore, 10, 64)
	if now < after || now >= before {
		return "", "", "", "invalid_exact_evm_payload_authorization_valid_before"
	}
	signer, err := Recover(p.Payload, net)
	if err != nil || !strings.EqualFold(signer, a.From) {
		return "", "", "", "invalid_exact_evm_payload_signature"
	}
	return strings.ToLower(a.From), strings.ToLower(a.From + ":" + a.Nonce), pr.Network, ""
}

func (f *Facilitator) verify(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.verifies++
	f.mu.Unlock()
	payer, key, _, reason := check(r)
	if reason == "" {
		f.mu.Lock()
		if _, used := f.transfers[key]; used {
			reason = "invalid_exact_evm_payload_authorization_nonce_used"
		}
		f.mu.Unlock()
	}
	writeJSON(w, x402.VerifyResult{IsValid: reason == "", InvalidReason: reason, Payer: payer})
}

func (f *Facilitator) settle(w http.ResponseWriter, r *http.Request) {
	payer, key, network, reason := check(r)
	f.mu.Lock()
	f.settles++
	tx, used := f.transfers[key]
	if reason == "" && !used {
		b := make([]byte, 32)
		_, _ = rand.Read(b)
		tx = "0x" + hex.EncodeToString(b)
		f.transfers[key] = tx
	}
	var stall time.Duration
	if f.stall > 0 {
		f.stall--
		stall = f.stallFor
	}
	fail := f.fail500 > 0
	if fail {
		f.fail500--
	}
	f.mu.Unlock()
	if fail {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	if stall > 0 {
		select {
		case <-time.After(stall):
		case <-r.Context().Done():
			return
		}
	}
	if reason != "" {
		writeJSON(w, x402.Settlement{Success: false, ErrorReason: reason, Payer: payer})
		return
	}
	// A settle of a payment already transferred answers the same
	// transaction: the contract spends an authorization once.
	writeJSON(w, x402.Settlement{Success: true, Transaction: tx, Network: network, Payer: payer})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// typedData is the EIP-712 document of a USDC transferWithAuthorization.
func typedData(a x402.Authorization, net x402.Network) (apitypes.TypedData, error) {
	value, ok1 := new(big.Int).SetString(a.Value, 10)
	after, ok2 := new(big.Int).SetString(a.ValidAfter, 10)
	before, ok3 := new(big.Int).SetString(a.ValidBefore, 10)
	if !ok1 || !ok2 || !ok3 {
		return apitypes.TypedData{}, fmt.Errorf("x402test: amounts are not integers")
	}
	return apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": {{Name: "name", Type: "string"}, {Name: "version", Type: "string"},
				{Name: "chainId", Type: "uint256"}, {Name: "verifyingContract", Type: "address"}},
			"TransferWithAuthorization": {{Name: "from", Type: "address"}, {Name: "to", Type: "address"},
				{Name: "value", Type: "uint256"}, {Name: "validAfter", Type: "uint256"},
				{Name: "validBefore", Type: "uint256"}, {Name: "nonce", Type: "bytes32"}},
		},
		PrimaryType: "TransferWithAuthorization",
		Domain: apitypes.TypedDataDomain{Name: net.EIP712Name, Version: net.EIP712Version,
			ChainId: math.NewHexOrDecimal256(net.ChainID), VerifyingContract: net.USDC},
		Message: apitypes.TypedDataMessage{
			"from": a.From, "to": a.To, "value": (*math.HexOrDecimal256)(value),
			"validAfter": (*math.HexOrDecimal256)(after), "validBefore": (*math.HexOrDecimal256)(before),
			"nonce": a.Nonce,
		},
	}, nil
}

// Recover returns the address that signed an exact payload on net.
func Recover(p x402.ExactPayload, net x402.Network) (string, error) {
	td, err := typedData(p.Authorization, net)
	if err != nil {
		return "", err
	}
	hash, _, err := apitypes.TypedDataAndHash(td)
	if err != nil {
		return "", fmt.Errorf("x402test: typed data: %w", err)
	}
	sig, err := hex.DecodeString(strings.TrimPrefix(p.Signature, "0x"))
	if err != nil || len(sig) != 65 {
		return "", fmt.Errorf("x402test: signature out of shape")
	}
	if sig[64] >= 27 {
		sig[64] -= 27
	}
	pub, err := crypto.SigToPub(hash, sig)
	if err != nil {
		return "", fmt.Errorf("x402test: recover: %w", err)
	}
	return crypto.PubkeyToAddress(*pub).Hex(), nil
}

// Payer is a throwaway test wallet that signs payments as an x402 client
// does.
type Payer struct {
	Key     *ecdsa.PrivateKey
	Address string
}

// NewPayer makes a fresh random wallet.
func NewPayer() Payer {
	k, err := crypto.GenerateKey()
	if err != nil {
		panic(err)
	}
	return Payer{Key: k, Address: crypto.PubkeyToAddress(k.PublicKey).Hex()}
}

// Pay signs a payment of r and returns the header value for protocol
// version 1 (X-PAYMENT) or 2 (PAYMENT-SIGNATURE).
func (p Payer) Pay(r x402.Requirement, version int) string {
	return p.PayValidUntil(r, version, time.Now().Unix()+x402.MaxTimeoutSeconds)
}

// PayValidUntil is Pay with the authorization valid until validBefore
// (Unix seconds).
func (p Payer) PayValidUntil(r x402.Requirement, version int, validBefore int64) string {
	nonce := make([]byte, 32)
	_, _ = rand.Read(nonce)
	now := time.Now().Unix()
	a := x402.Authorization{From: p.Address, To: common.HexToAddress(r.PayTo).Hex(),
		Value: strconv.FormatInt(r.AmountMicro, 10), ValidAfter: strconv.FormatInt(now-600, 10),
		ValidBefore: strconv.FormatInt(validBefore, 10), Nonce: "0x" + hex.EncodeToString(nonce)}
	td, err := typedData(a, r.Network)
	if err != nil {
		panic(err)
	}
	hash, _, err := apitypes.TypedDataAndHash(td)
	if err != nil {
		panic(err)
	}
	sig, err := crypto.Sign(hash, p.Key)
	if err != nil {
		panic(err)
	}
	sig[64] += 27
	payload := x402.ExactPayload{Signature: "0x" + hex.EncodeToString(sig), Authorization: a}
	var doc any
	if version == 2 {
		doc = map[string]any{"x402Version": 2, "accepted": json.RawMessage(x402.AcceptedV2(r)), "payload": payload}
	} else {
		doc = map[string]any{"x402Version": 1, "scheme": x402.SchemeExact, "network": r.Network.Name, "payload": payload}
	}
	b, _ := json.Marshal(doc)
	return base64.StdEncoding.EncodeToString(b)
}
