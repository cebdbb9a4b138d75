package web

import (
	"strconv"
	"time"
)

// The views of the full variant's pages: the account page (API keys of
// the session's user) and the credit page (a credit token's balance, the
// packages and their payment requirements). The server hands over plain
// values; nothing here reads a session or a database.

// Account page states.
const (
	AccountSignedIn    = "signed-in"
	AccountSignedOut   = "signed-out"  // no valid session of this product
	AccountUnavailable = "unavailable" // the identity keys cannot be had
)

// KeyInput is one API key as GET /api/account/keys lists it (timestamps
// RFC 3339, UTC).
type KeyInput struct {
	ID, Name       string
	OrganizationID *string
	Last4          string
	CreatedAt      string
	LastUsedAt     *string
	RevokedAt      *string
	Active         bool
}

// OrgInput is an organization in which the session's user may create keys.
type OrgInput struct{ ID, Role string }

// AccountInput is what the server hands over to build the account page.
type AccountInput struct {
	State        string
	Name         string // the session's display name, or ""
	AuthTime     time.Time
	Reauth       bool // the sign-in is older than the window key creation allows
	SecondFactor bool
	Orgs         []OrgInput
	Keys         []KeyInput
	MaxKeys      int
	// SignInURL is where the identity service signs people in
	// (AUTH_SIGNIN_URL), with this page as where to come back; "" when
	// the deployment names none.
	SignInURL string
}

// KeyView is one row of the key list.
type KeyView struct {
	ID, Name, Org, Last4 string
	Created, LastUsed    Date
	Revoked              Date
	Active               bool
}

// AccountView is the account page.
type AccountView struct {
	Chrome
	AccountInput
	SignedIn    Date
	KeyRows     []KeyView
	LiveKeys    int
	AtLimit     bool
	HasKeys     bool
	SignedOut   bool
	Unavailable bool
}

// NewAccountView builds the account page.
func NewAccountView(in AccountInput) AccountView {
	v := AccountView{
		Chrome: Chrome{Title: "Your API keys · OKF Index", Nav: "account", Full: true,
			Description: "Create, list and revoke the API keys of your house account for OKF Index."},
		AccountInput: in,
		SignedIn:     timeOf(in.AuthTime),
		SignedOut:    in.State == AccountSignedOut,
		Unavailable:  in.State == AccountUnavailable,
	}
	for _, k := range in.Keys {
		row := KeyView{ID: k.ID, Name: k.Name, Last4: k.Last4, Active: k.Active,
			Created: stamp(&k.CreatedAt), LastUsed: stamp(k.LastUsedAt), Revoked: stamp(k.RevokedAt)}
		if k.OrganizationID != nil {
			row.Org = *k.OrganizationID
		}
		if k.Active {
			v.LiveKeys++
		}
		v.KeyRows = append(v.KeyRows, row)
	}
	v.HasKeys = len(v.KeyRows) > 0
	v.AtLimit = in.MaxKeys > 0 && v.LiveKeys >= in.MaxKeys
	return v
}

// timeOf is a moment as shown (to the minute, UTC) and machine-readable.
func timeOf(t time.Time) Date {
	if t.IsZero() {
		return Date{}
	}
	t = t.UTC()
	return Date{t.Format("2 Jan 2006 15:04 UTC"), t.Format(time.RFC3339)}
}

// stamp is an RFC 3339 timestamp as shown; nil or unreadable is none.
func stamp(s *string) Date {
	if s == nil {
		return Date{}
	}
	t, err := time.Parse(time.RFC3339, *s)
	if err != nil {
		return Date{}
	}
	return timeOf(t)
}

// CreditPackage is one package of the credit page.
type CreditPackage struct {
	USD     int64
	Label   string
	Checked bool
}

// CreditView is the credit page.
type CreditView struct {
	Chrome
	Packages   []CreditPackage
	BalanceURL string // absolute URL of GET /api/credito, for the no-JavaScript line
	BillingURL string
	// Selling is false when the deployment has no receiving address
	// (X402_PAY_TO): it shows no payee and offers nothing to buy.
	Selling bool
}

// NewCreditView builds the credit page of the packages (in USD) on sale.
func NewCreditView(packagesUSD []int64, baseURL string, selling bool) CreditView {
	v := CreditView{
		Chrome: Chrome{Title: "Prepaid credit · OKF Index", Nav: "credit", Full: true,
			Description: "Read the balance of a prepaid credit token and see how to buy credit with an x402 wallet."},
		BalanceURL: baseURL + "/api/credito",
		BillingURL: baseURL + "/api/billing",
		Selling:    selling,
	}
	for i, n := range packagesUSD {
		v.Packages = append(v.Packages, CreditPackage{USD: n, Label: strconv.FormatInt(n, 10) + " USD", Checked: i == 0})
	}
	return v
}
