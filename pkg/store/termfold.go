package store

// The text queries of q's terms, computed once. A term is looked up
// through the database's own functions (okf_term, okf_phrase, okf_prefix:
// migration 0018), which stem it in each configuration. They are
// IMMUTABLE, so a statement planned with q's values folds each call into
// a constant, but it does so at every place the call stands: a relevance
// statement holds a term's query a dozen times over (its window, its
// tiers, the partial tier's conjunctions), and each statement of a search
// (its page, its count, its facets) again. A search asks the database for
// the values of the calls it has not met before, in one statement, keeps
// them, and passes them to its statements as tsquery parameters, which
// the planner reads as the same constants.
//
// The values are kept per call, at most maxFoldedCalls (emptied when
// full); they change only with the functions' definitions, which a
// migration changes and a restart reads. A call whose value cannot be
// read stays a call in the statement, as before: folding is a refinement,
// never a reason to fail a search.

import (
	"context"
	"fmt"
	"sync"

	"github.com/okfindex/okf-index/pkg/searchtext"
)

// maxFoldedCalls bounds the values kept.
const maxFoldedCalls = 20000

// termCall is one call of the text query functions with its arguments.
type termCall struct {
	fn   string // okf_term, okf_phrase or okf_prefix
	text string // the word, or the words of a phrase
	opt  string // okf_term: whether the word is also a prefix ("true", "false"); okf_prefix: the weights
	lang string // okf_term and okf_phrase: the configuration q is written in
}

// sql is the call as a statement makes it, its arguments added to b.
func (c termCall) sql(b *sqlBuilder) string {
	switch c.fn {
	case "okf_term":
		return `okf_term(` + b.arg(c.text) + `, ` + c.opt + `, ` + b.arg(c.lang) + `)`
	case "okf_phrase":
		return `okf_phrase(` + b.arg(c.text) + `, ` + b.arg(c.lang) + `)`
	}
	return `okf_prefix(` + b.arg(c.text) + `, '` + c.opt + `')`
}

// foldedCalls are the values kept.
type foldedCalls struct {
	mu     sync.Mutex
	values map[termCall]string
}

// foldTerms returns the values of the calls that the text queries of q
// (text, read as parsed) make, narrow or wide, reading those not kept in
// one statement. nil when they cannot be read.
func (s *Store) foldTerms(ctx context.Context, text string, parsed searchtext.Query) map[termCall]string {
	if s.unfolded {
		return nil
	}
	want := &sqlBuilder{widePrefix: true, recording: true}
	if _, ok := want.textQuery(text, parsed); !ok {
		return nil
	}
	f := &s.folded
	out := make(map[termCall]string, len(want.calls))
	var missing []termCall
	f.mu.Lock()
	for _, c := range want.calls {
		if v, ok := f.values[c]; ok {
			out[c] = v
		} else if _, asked := out[c]; !asked {
			out[c] = ""
			missing = append(missing, c)
		}
	}
	f.mu.Unlock()
	if len(missing) == 0 {
		return out
	}
	got, err := s.callValues(ctx, missing)
	if err != nil {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.values == nil || len(f.values)+len(got) > maxFoldedCalls {
		f.values = make(map[termCall]string, len(got))
	}
	for i, c := range missing {
		f.values[c] = got[i]
		out[c] = got[i]
	}
	return out
}

// callValues reads the values of calls, in their order, as tsquery text.
func (s *Store) callValues(ctx context.Context, calls []termCall) ([]string, error) {
	fns, texts, opts, langs := make([]string, len(calls)), make([]string, len(calls)),
		make([]string, len(calls)), make([]string, len(calls))
	for i, c := range calls {
		fns[i], texts[i], opts[i], langs[i] = c.fn, c.text, c.opt, c.lang
	}
	rows, err := s.read.Query(ctx, `SELECT CASE u.fn
		WHEN 'okf_term' THEN okf_term(u.t, u.o::boolean, u.l)
		WHEN 'okf_phrase' THEN okf_phrase(u.t, u.l)
		ELSE okf_prefix(u.t, u.o) END::text
	FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS u(fn, t, o, l, i)
	ORDER BY u.i`, fns, texts, opts, langs)
	if err != nil {
		return nil, fmt.Errorf("store: fold terms: %w", err)
	}
	defer rows.Close()
	out := make([]string, 0, len(calls))
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("store: fold terms: %w", err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: fold terms: %w", err)
	}
	if len(out) != len(calls) {
		return nil, fmt.Errorf("store: fold terms: %d values of %d calls", len(out), len(calls))
	}
	return out, nil
}
