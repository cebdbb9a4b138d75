package server

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// Prepaid credit of the full variant (contract 2.8, 4.6, 5): bought with
// an x402 payment, held by a bearer token cred_<secret> of which only the
// SHA-256 is stored, spent by the paid routes of every product of the
// house. Money is integer micro-dollars.

// creditPrefix starts every credit token; 32 random bytes follow,
// base64url without padding (43 characters).
const (
	creditPrefix   = "cred_"
	creditTokenLen = len(creditPrefix) + 43
	creditHeader   = "X-Credito"
)

// creditPackagesUSD are the packages on sale (contract 8).
var creditPackagesUSD = []int64{1, 5, 10, 25}

// CreditPurchase is the answer of POST /api/credito, shown once.
type CreditPurchase struct {
	Token    string `json:"token"`
	SaldoUSD string `json:"saldo_usd"`
	Guarde   string `json:"guarde"`
	Usar     string `json:"usar"`
	SaldoEm  string `json:"saldo_em"`
}

// CreditBalanceAnswer is the answer of GET /api/credito.
type CreditBalanceAnswer struct {
	SaldoMicros int64           `json:"saldo_micros"`
	SaldoUSD    string          `json:"saldo_usd"`
	CriadoEm    string          `json:"criado_em"`
	Movimentos  []CreditMovText `json:"movimentos"`
}

// CreditMovText is one movement of a balance.
type CreditMovText struct {
	Tipo        string `json:"tipo"` // credito or debito
	ValorMicros int64  `json:"valor_micros"`
	ValorUSD    string `json:"valor_usd"`
	Produto     string `json:"produto"`
	Recurso     string `json:"recurso"`
	Em          string `json:"em"`
}

// creditHash is the stored form of a credit token.
func creditHash(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// newCreditToken is cred_ plus 32 random bytes.
func newCreditToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return creditPrefix + base64.RawURLEncoding.EncodeToString(b)
}

// presentedCredit returns the credit token of a request: Authorization:
// Bearer cred_... or X-Credito. ok is false when none is presented.
func presentedCredit(c echo.Context) (token string, ok bool) {
	h := c.Request().Header
	if v := strings.TrimSpace(h.Get(creditHeader)); v != "" {
		return v, true
	}
	scheme, cred, found := strings.Cut(h.Get(echo.HeaderAuthorization), " ")
	cred = strings.TrimSpace(cred)
	if found && strings.EqualFold(scheme, "Bearer") && strings.HasPrefix(cred, creditPrefix) {
		return cred, true
	}
	return "", false
}

func invalidCredit(message string) error {
	return apierror.New(apierror.InvalidCredit, message)
}

// postCredito answers POST /api/credito?usd=1|5|10|25 [full only].
func (s *Server) postCredito(c echo.Context) error {
	exposePaymentHeaders(c)
	raw := c.QueryParam("usd")
	usdN, err := strconv.ParseInt(raw, 10, 64)
	valid := err == nil
	if valid {
		valid = false
		for _, p := range creditPackagesUSD {
			valid = valid || p == usdN
		}
	}
	if !valid {
		return apierror.New(apierror.InvalidPackage, "usd must be one of the credit packages 1, 5, 10 or 25.").At("usd")
	}
	micros := usdN * 1_000_000
	req := s.requirement("/api/credito?usd="+raw, micros, "OKF Index prepaid credit, "+usd(micros)+" USD")
	paid, present, err := s.collect(c, req, productID)
	if err != nil {
		return err
	}
	if !present {
		return s.needPayment(req, apierror.PaymentRequired, "Credit is bought with x402: pay the offer below in USDC and repeat this call with the payment header.")
	}
	token := newCreditToken()
	if err := s.store.BuyCredit(c.Request().Context(), paid.id, paid.transaction, creditHash(token)); err != nil {
		return err
	}
	settlementHeader(c, paid)
	c.Response().Header().Set("Cache-Control", "no-store")
	return respond.JSON(c, http.StatusOK, CreditPurchase{
		Token:    token,
		SaldoUSD: usd(micros),
		Guarde:   "Keep this token now: it is shown once and cannot be recovered; whoever holds it spends the credit.",
		Usar:     "Send Authorization: Bearer <token> (or X-Credito: <token>) on a paid call of any product of the house.",
		SaldoEm:  s.baseURL + "/api/credito",
	})
}

// getCredito answers GET /api/credito [full only]: the balance of the
// presented token, never the token.
func (s *Server) getCredito(c echo.Context) error {
	token, ok := presentedCredit(c)
	if !ok {
		return invalidCredit("Present the credit token: Authorization: Bearer cred_... or X-Credito.")
	}
	if len(token) != creditTokenLen || !strings.HasPrefix(token, creditPrefix) {
		return invalidCredit("The credit token is unknown.")
	}
	b, err := s.store.CreditBalance(c.Request().Context(), creditHash(token))
	if errors.Is(err, store.ErrCreditUnknown) {
		return invalidCredit("The credit token is unknown.")
	}
	if err != nil {
		return err
	}
	out := CreditBalanceAnswer{SaldoMicros: b.BalanceMicros, SaldoUSD: usd(b.BalanceMicros),
		CriadoEm: b.CreatedAt.UTC().Format(time.RFC3339), Movimentos: []CreditMovText{}}
	for _, m := range b.Movements {
		tipo := "credito"
		if m.Kind == "debit" {
			tipo = "debito"
		}
		out.Movimentos = append(out.Movimentos, CreditMovText{Tipo: tipo, ValorMicros: m.AmountMicros, ValorUSD: usd(m.AmountMicros),
			Produto: m.Product, Recurso: m.Resource, Em: m.At.UTC().Format(time.RFC3339)})
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return respond.JSON(c, http.StatusOK, out)
}
