package clientreport_test

import (
	"log/slog"
	"os"
	"time"

	"github.com/okfindex/okf-index/pkg/clientreport"
)

// A report goes in; one redacted, merged event comes out when the window
// closes (here, at Flush). The time attribute is dropped to keep the output
// stable.
func Example() {
	log := slog.New(slog.NewJSONHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	now := time.Date(2026, 3, 14, 15, 9, 30, 0, time.UTC)
	r := clientreport.New(log, clientreport.Options{Now: func() time.Time { return now }})

	body := []byte(`{"code":"UI-PROMESSA-001","phase":"load_list","path":"/busca?q=x",
		"message":"fetch failed for joao@example.com","line":12,"column":5,"ip":"203.0.113.9"}`)
	ua := "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"
	show := func(o clientreport.Outcome) { os.Stdout.WriteString(o.String() + "\n") }
	show(r.Report(body, ua))
	show(r.Report(body, ua))
	show(r.Report([]byte(`{"code":"oops"}`), ua))
	r.Flush()
	// Output:
	// accepted
	// merged
	// invalid
	// {"level":"WARN","msg":"client_error","code":"UI-PROMESSA-001","phase":"load_list","path":"/busca","source":"","line":12,"column":5,"visivel":false,"message":"fetch failed for [redacted-email]","message_truncated":false,"stack":"","stack_truncated":false,"count":2,"first_seen":"2026-03-14T15:09:30Z","last_seen":"2026-03-14T15:09:30Z","ua_family":"firefox"}
}
