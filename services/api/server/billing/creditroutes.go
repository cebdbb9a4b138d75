package billing

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/caller"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// The credit routes of the full variant: buy a package (POST /api/credito)
// and read a balance (GET /api/credito). The token and the payment are
// package billing's; these handlers parse and encode.

// CreditPurchase is the answer of POST /api/credito, shown once.
type CreditPurchase struct {
	Token      string `json:"token"`
	BalanceUSD string `json:"saldo_usd"`
	KeepIt     string `json:"guarde"`
	HowToUse   string `json:"usar"`
	BalanceURL string `json:"saldo_em"`
}

// CreditBalanceAnswer is the answer of GET /api/credito.
type CreditBalanceAnswer struct {
	BalanceMicros int64           `json:"saldo_micros"`
	BalanceUSD    string          `json:"saldo_usd"`
	CreatedAt     string          `json:"criado_em"`
	Movements     []CreditMovText `json:"movimentos"`
}

// CreditMovText is one movement of a balance.
type CreditMovText struct {
	Kind         string `json:"tipo"` // credito or debito
	AmountMicros int64  `json:"valor_micros"`
	AmountUSD    string `json:"valor_usd"`
	Product      string `json:"produto"`
	Resource     string `json:"recurso"`
	At           string `json:"em"`
}

// postCredit answers POST /api/credito?usd=1|5|10|25 [full only]. usd is
// exactly one of the packages as written there: no sign, no leading zero.
func (s *Service) postCredit(c echo.Context) error {
	ExposeHeaders(c.Response().Header())
	raw := c.QueryParam("usd")
	var usdN int64
	for _, p := range CreditPackagesUSD {
		if raw == strconv.FormatInt(p, 10) {
			usdN = p
		}
	}
	if usdN == 0 || len(c.QueryParams()["usd"]) != 1 {
		return apierror.New(apierror.InvalidPackage, "usd must be one of the credit packages 1, 5, 10 or 25, written as such, once.").At("usd")
	}
	micros := usdN * 1_000_000
	req := s.Offer("/api/credito?usd="+strconv.FormatInt(usdN, 10), micros, "OKF Index prepaid credit, "+wire.USD(micros)+" USD")
	ctx := c.Request().Context()
	paid, present, err := s.Pay(ctx, c.Request().Header, req, store.GrantSpec{Kind: store.GrantCredit}, caller.Client(ctx).String())
	if err != nil {
		return err
	}
	if !present {
		return s.PaymentNeeded(req, apierror.PaymentRequired, "Credit is bought with x402: pay the offer below in USDC and repeat this call with the payment header.")
	}
	paid.SetReceipt(c.Response().Header())
	c.Response().Header().Set("Cache-Control", "no-store")
	return respond.JSON(c, http.StatusOK, CreditPurchase{
		Token:      paid.Token,
		BalanceUSD: wire.USD(micros),
		KeepIt:     "Keep this token now: it is shown once (again only to this client, for the same payment) and cannot be recovered; whoever holds it spends the credit.",
		HowToUse:   "Send Authorization: Bearer <token> (or X-Credito: <token>) on a paid call of any product of the house.",
		BalanceURL: s.baseURL + "/api/credito",
	})
}

// getCredit answers GET /api/credito [full only]: the balance of the
// presented token, never the token.
func (s *Service) getCredit(c echo.Context) error {
	token, ok := CreditToken(c.Request().Header)
	if !ok {
		return InvalidCredit("Present the credit token: Authorization: Bearer cred_... or X-Credito.")
	}
	if len(token) != CreditTokenLen || !strings.HasPrefix(token, CreditPrefix) {
		return InvalidCredit("The credit token is unknown.")
	}
	b, err := s.store.CreditBalance(c.Request().Context(), CreditHash(token))
	if errors.Is(err, store.ErrCreditUnknown) {
		return InvalidCredit("The credit token is unknown.")
	}
	if err != nil {
		return err
	}
	if b.Mode != string(s.mode) {
		return InvalidCredit(fmt.Sprintf("This credit token was minted in %s mode; it holds nothing on this %s deployment.", b.Mode, s.mode))
	}
	out := CreditBalanceAnswer{BalanceMicros: b.BalanceMicros, BalanceUSD: wire.USD(b.BalanceMicros),
		CreatedAt: b.CreatedAt.UTC().Format(time.RFC3339), Movements: []CreditMovText{}}
	for _, m := range b.Movements {
		kind := "credito"
		if m.Kind == "debit" {
			kind = "debito"
		}
		out.Movements = append(out.Movements, CreditMovText{Kind: kind, AmountMicros: m.AmountMicros, AmountUSD: wire.USD(m.AmountMicros),
			Product: m.Product, Resource: m.Resource, At: m.At.UTC().Format(time.RFC3339)})
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return respond.JSON(c, http.StatusOK, out)
}
