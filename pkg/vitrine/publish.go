package vitrine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
)

// Publisher is the collector: it gathers the counters and statistics and
// publishes the four documents of a product.
type Publisher struct {
	Store   *store.Store
	Product string // the product id (okf)
	Name    string // its display name
	BaseURL string // PUBLIC_BASE_URL
	Build   string // the published commit of the running binary
	// Full adds the account figures (contas); null otherwise.
	Full bool
	// Now is the clock (tests); time.Now when nil.
	Now func() time.Time
}

// Panel is the document of GET /api/vitrine/painel: every product the
// collector publishes, ordered by id (here, one), exact figures.
type Panel struct {
	Apps    []PanelApp  `json:"apps"`
	Updated string      `json:"updated"`
	Totals  PanelTotals `json:"totals"`
}

// PanelApp is one product's line of the panel.
type PanelApp struct {
	ID           string   `json:"id"`
	Name         string   `json:"nome"`
	UpdatedAt    string   `json:"atualizado_em"`
	UsageToday   *int64   `json:"uso_hoje"`
	Usage7d      *int64   `json:"uso_7d"`
	Usage30d     *int64   `json:"uso_30d"`
	Visitors7d   *int64   `json:"visitantes_7d"`
	APIAI7d      *int64   `json:"api_ia_7d"`
	No5xxShare7d *float64 `json:"sem_5xx_7d"`
	Bundles      *int64   `json:"bundles"`
	Build        string   `json:"build"`
}

// PanelTotals sums the panel's products.
type PanelTotals struct {
	Apps       int    `json:"apps"`
	Usage7d    *int64 `json:"uso_7d"`
	Usage30d   *int64 `json:"uso_30d"`
	Visitors7d *int64 `json:"visitantes_7d"`
}

// Cursor is a product's entry of GET /api/vitrine/cursores: how far the
// collector has read each source. borda is the newest usage flush of the
// API edge; this service has no CLI source, so cli is never set.
type Cursor struct {
	Edge *string `json:"borda,omitempty"`
	CLI  *string `json:"cli,omitempty"`
}

// Publish closes the visitor days that ended over an hour ago, marks today
// as measured, gathers the inputs and publishes the four documents, stamped
// with the current UTC hour. A second call within the same hour writes
// nothing (the store keeps the hour's first publication); it reports
// whether this call published.
func (p *Publisher) Publish(ctx context.Context) (bool, error) {
	now := time.Now
	if p.Now != nil {
		now = p.Now
	}
	t := now().UTC().Truncate(time.Second)
	in, lastFlush, err := p.gather(ctx, t)
	if err != nil {
		return false, err
	}
	docs, err := Documents(in, lastFlush)
	if err != nil {
		return false, err
	}
	return p.Store.PublishVitrine(ctx, p.Product, t, docs)
}

// gather reads what one publication needs.
func (p *Publisher) gather(ctx context.Context, now time.Time) (Input, *time.Time, error) {
	if _, err := p.Store.CloseUsageDays(ctx, now.Add(-time.Hour)); err != nil {
		return Input{}, nil, err
	}
	today := now.Truncate(24 * time.Hour)
	if _, err := p.Store.OpenUsageDay(ctx, today); err != nil && !errors.Is(err, store.ErrDayClosed) {
		return Input{}, nil, err
	}
	first := today.AddDate(0, 0, -(Days - 1))
	in := Input{Now: now, Product: p.Product, Name: p.Name, BaseURL: p.BaseURL, Build: p.Build,
		Counts: map[string]map[string]int64{}, Measured: map[string]int64{}}
	rows, err := p.Store.Usage(ctx, first, today)
	if err != nil {
		return Input{}, nil, err
	}
	for _, r := range rows {
		d := key(r.Day)
		if in.Counts[d] == nil {
			in.Counts[d] = map[string]int64{}
		}
		in.Counts[d][r.Metric] = r.N
	}
	days, err := p.Store.MeasuredDays(ctx, first, today)
	if err != nil {
		return Input{}, nil, err
	}
	for _, d := range days {
		in.Measured[key(d.Day)] = d.Visitors
	}
	if in.Since, err = p.Store.FirstUsageDay(ctx); err != nil {
		return Input{}, nil, err
	}
	if in.Stats, err = p.Store.Stats(ctx); err != nil {
		return Input{}, nil, err
	}
	if p.Full {
		a, err := p.Store.AccountTotals(ctx, p.Product)
		if err != nil {
			return Input{}, nil, err
		}
		in.Accounts = &Accounts{Total: a.Total, LiveKeys: a.KeysLive}
	}
	lastFlush, err := p.Store.LastUsageFlush(ctx)
	if err != nil {
		return Input{}, nil, err
	}
	return in, lastFlush, nil
}

// Documents are the four documents of one publication, by store kind: the
// rounded projection, the exact one, the panel and the cursors.
func Documents(in Input, lastFlush *time.Time) (map[string][]byte, error) {
	public, exact := Build(in, true), Build(in, false)
	var bundles *int64
	if exact.Catalog != nil {
		bundles = &exact.Catalog.Bundles
	}
	at := *exact.UpdatedAt
	panel := Panel{
		Apps: []PanelApp{{ID: in.Product, Name: in.Name, UpdatedAt: at, UsageToday: exact.Usage.Today,
			Usage7d: exact.Usage.D7, Usage30d: exact.Usage.D30, Visitors7d: exact.Visitors.D7,
			APIAI7d: exact.Agents.APIAI7d, No5xxShare7d: exact.Reliability.No5xxShare7d, Bundles: bundles, Build: in.Build}},
		Updated: at,
		Totals:  PanelTotals{Apps: 1, Usage7d: exact.Usage.D7, Usage30d: exact.Usage.D30, Visitors7d: exact.Visitors.D7},
	}
	cursor := Cursor{}
	if lastFlush != nil {
		s := lastFlush.UTC().Format(time.RFC3339)
		cursor.Edge = &s
	}
	docs := map[string]any{
		store.VitrinePublic:   public,
		store.VitrineOperator: exact,
		store.VitrinePanel:    panel,
		store.VitrineCursors:  map[string]Cursor{in.Product: cursor},
	}
	out := map[string][]byte{}
	for kind, d := range docs {
		b, err := json.Marshal(d)
		if err != nil {
			return nil, fmt.Errorf("vitrine: encode %s: %w", kind, err)
		}
		out[kind] = b
	}
	return out, nil
}
