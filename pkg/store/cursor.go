package store

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"time"

	"github.com/okfindex/okf-index/pkg/wire"
)

// A cursor is the sort key of the last bundle of a page, opaque to clients:
// SearchParams.After set to it makes Search seek past that bundle through
// the sort's index instead of counting Offset rows, so a page reached
// through the API's next link costs what the first page costs. Search gives
// each bundle it returns the cursor that follows it (Bundle.Cursor), or ""
// where offset is the only way on: the ranked tiers of relevance, whose
// order is a score, not an index; they end within the first few pages.
//
// The key matches the sort's ORDER BY (sortOrders), id last, so the seek
// neither repeats nor skips a bundle, and bundles written meanwhile land
// before the cursor (newer) or in their place in the order, never twice.

// ErrBadCursor is returned for an After that Search did not make, or made
// for another sort.
var ErrBadCursor = errors.New("store: search: not a cursor of this sort")

// cursorKey is what a cursor holds.
type cursorKey struct {
	Sort  wire.Sort `json:"s"`
	Time  int64     `json:"t,omitempty"` // indexed_at (recent, relevance) or updated_at, in microseconds
	Name  string    `json:"n,omitempty"` // name (name)
	Stars *int      `json:"r,omitempty"` // repo_stars (stars); nil for NULL
	ID    string    `json:"i"`
}

func (k cursorKey) encode() string {
	b, _ := json.Marshal(k) // cannot fail
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor reads a cursor of sort.
func decodeCursor(c string, sort wire.Sort) (cursorKey, error) {
	var k cursorKey
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || json.Unmarshal(b, &k) != nil || k.Sort != sort || k.ID == "" {
		return cursorKey{}, ErrBadCursor
	}
	return k, nil
}

// CheckCursor returns ErrBadCursor unless c is a cursor Search made for
// sort (the API checks a client's cursor with it before searching).
func CheckCursor(c string, sort wire.Sort) error {
	_, err := decodeCursor(c, sort)
	return err
}

// cursorOf is the cursor after b in a search of sort; tier is the
// relevance tier of b (rankedTiers and restTier), stars its repo_stars.
func cursorOf(sort wire.Sort, b Bundle, tier int, stars *int) string {
	k := cursorKey{Sort: sort, ID: b.ID}
	switch sort {
	case wire.SortRecent:
		k.Time = b.IndexedAt.UnixMicro()
	case wire.SortUpdated:
		k.Time = b.UpdatedAt.UnixMicro()
	case wire.SortName:
		k.Name = b.Name
	case wire.SortStars:
		k.Stars = stars
	case wire.SortRelevance:
		if tier != restTier {
			return ""
		}
		k.Time = b.IndexedAt.UnixMicro()
	}
	return k.encode()
}

// after is the WHERE condition of the rows that follow k in k.Sort's order
// (relevance: in its rest tier, newest first). Each is written so that the
// sort's index reads it as a range.
func (b *sqlBuilder) after(k cursorKey) string {
	id := b.arg(k.ID)
	switch k.Sort {
	case wire.SortName:
		return `(lower(name) COLLATE "C", id) > (lower(` + b.arg(k.Name) + `::text) COLLATE "C", ` + id + `)`
	case wire.SortStars:
		if k.Stars == nil {
			return `(repo_stars IS NULL AND id > ` + id + `)`
		}
		s := b.arg(*k.Stars)
		return `(repo_stars <= ` + s + ` AND (repo_stars < ` + s + ` OR id > ` + id + `) OR repo_stars IS NULL)`
	}
	col := "indexed_at"
	if k.Sort == wire.SortUpdated {
		col = "updated_at"
	}
	t := b.arg(time.UnixMicro(k.Time).UTC()) + `::timestamptz`
	return `(` + col + ` <= ` + t + ` AND (` + col + ` < ` + t + ` OR id > ` + id + `))`
}
