package ping

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/query"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// pingStatusQuery is a validated query of GET /api/ping/status.
type pingStatusQuery struct {
	host   string
	limit  int   // 1..store.MaxPingStatus
	cursor int64 // 0: the first page
}

// getPingStatus answers GET /api/ping/status?host=<domain>: a page of the
// submitted URLs of one host (limit, at most store.MaxPingStatus), newest
// first, each pendente (with the last error and retry_at while its
// verification is retried), publicado (with its bundle id) or rejeitado
// (with the reason); never a key. next links the following page. An
// unknown host has an empty list.
func (s *Service) getPingStatus(c echo.Context) error {
	q, err := parsePingStatus(c.QueryString())
	if err != nil {
		return err
	}
	page, err := s.d.Store.PingStatuses(c.Request().Context(), q.host, q.limit, q.cursor)
	if err != nil {
		return err
	}
	out := wire.PingStatusPage{Host: q.host, Items: page.Items}
	if page.Next != 0 {
		next := s.d.BaseURL + "/api/ping/status?" + url.Values{"host": {q.host}, "limit": {strconv.Itoa(q.limit)},
			"cursor": {strconv.FormatInt(page.Next, 10)}}.Encode()
		out.Next = &next
	}
	return respond.JSON(c, http.StatusOK, out)
}

// parsePingStatus validates the query of GET /api/ping/status with the
// rules of the search's (search.ParseSearch): unknown parameters are ignored, an
// empty value is absent, a parameter given twice is a 400
// invalid_parameter. A missing or malformed host is a 400 invalid_host;
// limit is a whole number of at least 1 (above store.MaxPingStatus it
// counts as that); cursor is the one a next link carries.
func parsePingStatus(rawQuery string) (pingStatusQuery, error) {
	q := pingStatusQuery{limit: store.MaxPingStatus}
	vals, err := url.ParseQuery(rawQuery)
	if err != nil {
		return q, apierror.Parameter("", "The query string is not valid URL encoding.")
	}
	r := query.Reader{Vals: vals}
	raw, _ := r.Scalar("host", false)
	if r.Err() != nil {
		return q, r.Err()
	}
	host, ok := normalizeHost(raw)
	if !ok {
		return q, apierror.New(apierror.InvalidHost, "host must be a domain name (no scheme, port, path or IP address).").At("host")
	}
	q.host = host
	if limit, ok := r.Scalar("limit", false); ok {
		n, valid := query.WholeNumber(limit, store.MaxPingStatus)
		if !valid || n < 1 {
			r.Fail(apierror.Parameter("limit", "limit must be a whole number of at least 1 (above %d it counts as %d).", store.MaxPingStatus, store.MaxPingStatus))
		}
		q.limit = n
	}
	if cursor, ok := r.Scalar("cursor", false); ok {
		n, err := strconv.ParseInt(cursor, 10, 64)
		if err != nil || n < 1 {
			r.Fail(apierror.Parameter("cursor", "cursor must be the value of a next link."))
		}
		q.cursor = n
	}
	return q, r.Err()
}
