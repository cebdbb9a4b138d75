package store

import (
	"strconv"
	"strings"
	"time"
)

// writtenColumns are the columns of bundles that a writer sets from a
// bundle, in one list: upsertSQL's column lists, its unnest, its update and
// upsertArgs are all made from it. A new column of bundles that writers set
// is one row here (TestWrittenColumnsCoverTable names every column of the
// table that is neither here nor in columnsNotWritten).
var writtenColumns = []writtenColumn{
	column("id", "text", func(r bundleRow) string { return r.in.ID }).keptOnUpdate(),
	column("path_low", "boolean", func(r bundleRow) bool { return r.in.Low }),
	column("name", "text", func(r bundleRow) string { return r.in.Name }),
	column("tagline", "text", func(r bundleRow) string { return r.in.Tagline }),
	column("description", "text", func(r bundleRow) string { return r.in.Description }),
	column("okf_version", "text", func(r bundleRow) string { return r.in.OKFVersion }),
	column("concepts", "integer", func(r bundleRow) int { return r.in.Concepts }),
	column("concept_list", "text", func(r bundleRow) string { return r.conceptList }).as("u.concept_list::jsonb"),
	column("type", "text", func(r bundleRow) string { return r.in.Type }),
	column("index_url", "text", func(r bundleRow) string { return r.in.IndexURL }),
	column("page_url", "text", func(r bundleRow) string { return r.in.PageURL }),
	column("origin", "text", func(r bundleRow) string { return string(r.in.Source.Origin) }),
	column("via", "text", func(r bundleRow) string { return r.in.Source.Via }),
	column("source_url", "text", func(r bundleRow) string { return r.in.Source.URL }),
	column("host", "text", func(r bundleRow) string { return r.in.Source.Host }),
	column("repo", "text", func(r bundleRow) *string { return r.repo }),
	column("dir", "text", func(r bundleRow) string { return r.in.Source.Dir }),
	column("path", "text", func(r bundleRow) string { return r.in.Source.Path }),
	column("ident", "text", func(r bundleRow) string { return r.ident }),
	column("repo_stars", "integer", func(r bundleRow) *int { return r.sig.Stars }),
	column("repo_forks", "integer", func(r bundleRow) *int { return r.sig.Forks }),
	column("repo_pushed_at", "timestamptz", func(r bundleRow) *time.Time { return r.sig.PushedAt }),
	column("repo_state", "text", func(r bundleRow) *string { return r.sig.State }),
	column("repo_language", "text", func(r bundleRow) *string { return r.sig.Language }),
	column("repo_license", "text", func(r bundleRow) *string { return r.sig.License }),
	column("root_sha256", "text", func(r bundleRow) string { return r.in.RootSHA256 }),
	column("content_hash", "text", func(r bundleRow) string { return r.contentHash }),
	column("lang", "text", func(r bundleRow) string { return r.lang }).as("u.lang::regconfig"),
	column("search_extra", "text", func(r bundleRow) string { return r.searchExtra }),
	column("cut", "text", func(r bundleRow) string { return strings.Join(r.in.Cut, ",") }).as("string_to_array(u.cut, ',')"),
	column("look_alike_key", "text", func(r bundleRow) string { return r.lookAlike }),
	column("imported", "boolean", func(r bundleRow) bool { return r.in.Imported }),
}

// columnsNotWritten are the columns of bundles a writer does not set from
// a bundle's values: upsertSQL computes visibility, indexed_at, updated_at
// and analysis; look_alike_of is set by the look-alike flags after the
// write (lookalike.go), gone_reason by the writers that hide a bundle. The
// search vectors are generated columns, made from the written text.
var columnsNotWritten = []string{"visibility", "indexed_at", "updated_at", "analysis", "look_alike_of", "gone_reason"}

// writtenColumn is one column of writtenColumns.
type writtenColumn struct {
	name    string
	pgType  string                     // the element type of its unnest array
	values  func(rows []bundleRow) any // the array of its values, one per row
	expr    string                     // what the INSERT writes; u.<name> by default
	updated bool                       // an existing row takes the new value
}

// column is a written column whose value for a row is get(row).
func column[T any](name, pgType string, get func(bundleRow) T) writtenColumn {
	return writtenColumn{name: name, pgType: pgType, updated: true, values: func(rows []bundleRow) any {
		out := make([]T, len(rows))
		for i, r := range rows {
			out[i] = get(r)
		}
		return out
	}}
}

// as sets the expression that writes the column from u.<name>.
func (c writtenColumn) as(expr string) writtenColumn { c.expr = expr; return c }

// keptOnUpdate makes an existing row keep its value.
func (c writtenColumn) keptOnUpdate() writtenColumn { c.updated = false; return c }

// Placeholders of upsertSQL after the columns' arrays.
var (
	upsertClockArg    = len(writtenColumns) + 1 // the writers' clock, null for now()
	upsertAnalysisArg = len(writtenColumns) + 2 // analysisVersion
)

// upsertSQL writes bundles, one per element of the columns' arrays (one
// statement whatever their number, so the statistics triggers run once per
// batch). A new bundle starts live, or low when its path says so or an
// earlier non-hidden copy of its root exists; an existing one keeps
// indexed_at, and keeps updated_at unless its content hash changed.
// Reconciliation of the duplicate groups follows in the same transaction.
// The bundles of one batch are indexed a microsecond apart in their order,
// so that "the earliest indexed" of duplicates written together is the
// first written, as it is when they are written one by one.
var upsertSQL = buildUpsertSQL()

func buildUpsertSQL() string {
	var names, exprs, arrays, updates []string
	for i, c := range writtenColumns {
		names = append(names, c.name)
		expr := c.expr
		if expr == "" {
			expr = "u." + c.name
		}
		exprs = append(exprs, expr)
		arrays = append(arrays, "$"+strconv.Itoa(i+1)+"::"+c.pgType+"[]")
		if c.updated {
			updates = append(updates, c.name+" = excluded."+c.name)
		}
	}
	clock := `coalesce($` + strconv.Itoa(upsertClockArg) + `::timestamptz, now()) + (u.ord - 1) * interval '1 microsecond'`
	return `
INSERT INTO bundles AS b (visibility, ` + strings.Join(names, ", ") + `, indexed_at, updated_at, analysis)
SELECT CASE WHEN u.path_low THEN 'low'
	     WHEN EXISTS (SELECT 1 FROM bundles o WHERE o.root_sha256 = u.root_sha256 AND o.id <> u.id
	                  AND o.visibility <> 'hidden' AND NOT o.path_low) THEN 'low'
	     ELSE 'live' END,
	` + strings.Join(exprs, ", ") + `,
	` + clock + `,
	` + clock + `,
	$` + strconv.Itoa(upsertAnalysisArg) + `::smallint
FROM unnest(` + strings.Join(arrays, ", ") + `) WITH ORDINALITY
	AS u(` + strings.Join(names, ", ") + `, ord)
ON CONFLICT (id) DO UPDATE SET
	visibility = CASE WHEN excluded.path_low THEN 'low'
	     WHEN EXISTS (SELECT 1 FROM bundles o WHERE o.root_sha256 = excluded.root_sha256
	                  AND o.id <> b.id AND o.visibility <> 'hidden' AND NOT o.path_low
	                  AND (o.indexed_at, o.id) < (b.indexed_at, b.id)) THEN 'low'
	     ELSE 'live' END,
	` + strings.Join(updates, ", ") + `, analysis = excluded.analysis,
	updated_at = CASE WHEN b.content_hash = excluded.content_hash THEN b.updated_at
	                  ELSE excluded.updated_at END`
}

// upsertArgs are the arguments of upsertSQL: one array per written column,
// then the writers' clock and analysisVersion.
func upsertArgs(rows []bundleRow, now *time.Time) []any {
	args := make([]any, 0, len(writtenColumns)+2)
	for _, c := range writtenColumns {
		args = append(args, c.values(rows))
	}
	return append(args, now, analysisVersion)
}
