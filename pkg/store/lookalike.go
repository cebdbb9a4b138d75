package store

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/wire"
)

// lookAlikesSQL reads, for each written bundle $1 with its look-alike key
// $2, its look_alike_of and name key, and the original of its key: the
// earliest indexed live bundle holding the key (one probe of
// bundles_live_look_alike each).
const lookAlikesSQL = `
SELECT w.id, coalesce(b.look_alike_of, ''), okf_name_key(b.name), coalesce(o.id, ''), coalesce(okf_name_key(o.name), '')
FROM unnest($1::text[], $2::text[]) AS w(id, key)
JOIN bundles AS b ON b.id = w.id
LEFT JOIN LATERAL (
	SELECT id, name FROM bundles
	WHERE look_alike_key = w.key AND visibility = 'live' AND look_alike_key <> ''
	ORDER BY indexed_at, id LIMIT 1
) AS o ON true`

// markLookAlikes sets look_alike_of of the written live bundles: the
// original of their look-alike key when their name is not the original's
// (okf_name_key differs: the same look, other characters), else none. Rows
// already right are not rewritten, so a batch without look-alikes writes
// nothing here.
//
// Decisions: the original is the earliest indexed live bundle of the key, so
// a look-alike indexed before the bundle it imitates flags that bundle
// instead, until the look-alike is hidden and the other is written again;
// two bundles of the same name in different repositories (forks, copies)
// are not look-alikes of each other; a bundle keeps its flag when its
// original is hidden, until it is written again.
func markLookAlikes(ctx context.Context, tx pgx.Tx, write []bundleRow, vis map[string]wire.Visibility) error {
	var ids, keys []string
	for _, r := range write {
		if vis[r.in.ID] == wire.VisibilityLive && r.lookAlike != "" {
			ids, keys = append(ids, r.in.ID), append(keys, r.lookAlike)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	rows, err := tx.Query(ctx, lookAlikesSQL, ids, keys)
	if err != nil {
		return err
	}
	var setIDs, setOf []string
	var id, of, nameKey, orig, origKey string
	_, err = pgx.ForEachRow(rows, []any{&id, &of, &nameKey, &orig, &origKey}, func() error {
		want := orig
		if orig == "" || orig == id || nameKey == origKey {
			want = ""
		}
		if want != of {
			setIDs, setOf = append(setIDs, id), append(setOf, want)
		}
		return nil
	})
	if err != nil || len(setIDs) == 0 {
		return err
	}
	_, err = tx.Exec(ctx, `UPDATE bundles AS b SET look_alike_of = NULLIF(u.of, '')
		FROM unnest($1::text[], $2::text[]) AS u(id, of) WHERE b.id = u.id`, setIDs, setOf)
	return err
}
