package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// post sends a JSON body; the contract transport checks the exchange.
func (a *testAPI) post(path string, body []byte) (*http.Response, []byte) {
	a.t.Helper()
	req, err := http.NewRequestWithContext(a.t.Context(), http.MethodPost, a.url+path, bytes.NewReader(body))
	if err != nil {
		a.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	resp, err := a.client.Do(req)
	if err != nil {
		a.t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		a.t.Fatal(err)
	}
	return resp, out
}

// ping is a submission body; fields left nil are omitted.
func pingBody(host, key any, urls any, keyLocation any) []byte {
	m := map[string]any{}
	for k, v := range map[string]any{"host": host, "key": key, "urlList": urls, "keyLocation": keyLocation} {
		if v != nil {
			m[k] = v
		}
	}
	b, _ := json.Marshal(m)
	return b
}

// roots returns n distinct root URLs on host starting at from.
func roots(host string, from, n int) []string {
	var out []string
	for i := from; i < from+n; i++ {
		out = append(out, fmt.Sprintf("https://%s/bundle-%d/index.md", host, i))
	}
	return out
}

const testKey = "a1b2c3d4-e5f6"

// verifyJobs lists the queued verify_ping jobs.
func verifyJobs(t *testing.T, st *store.Store) []jobs.VerifyPingArgs {
	t.Helper()
	client, err := river.NewClient(riverpgxv5.New(st.Pool()), &river.Config{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := client.JobList(context.Background(), river.NewJobListParams().Kinds(jobs.VerifyPingArgs{}.Kind()).First(1000))
	if err != nil {
		t.Fatal(err)
	}
	var out []jobs.VerifyPingArgs
	for _, j := range res.Jobs {
		var a jobs.VerifyPingArgs
		if err := json.Unmarshal(j.EncodedArgs, &a); err != nil {
			t.Fatal(err)
		}
		out = append(out, a)
	}
	return out
}

// Every 400, 413, 422 and 429 case of POST /api/ping (contract section 7),
// each answering its error name and the field at fault.
func TestPingRefusals(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	h := "docs.example"
	ok := roots(h, 0, 1)
	long := strings.Repeat("k", 129)
	huge := make([]string, 100)
	for i := range huge {
		huge[i] = "https://" + h + "/" + strings.Repeat("x", 700) + ".md"
	}
	cases := []struct {
		name   string
		body   []byte
		status int
		err    string
		field  string
	}{
		{"not json", []byte(`{"host":`), 400, apierror.InvalidBody, ""},
		{"array body", []byte(`[]`), 400, apierror.InvalidBody, ""},
		{"null body", []byte(`null`), 400, apierror.InvalidBody, ""},
		{"null body with spaces", []byte(" \n null "), 400, apierror.InvalidBody, ""},
		{"empty body", []byte(``), 400, apierror.InvalidBody, ""},
		{"host not a string", []byte(`{"host":5,"key":"` + testKey + `","urlList":["` + ok[0] + `"]}`), 400, apierror.InvalidBody, "host"},
		{"urlList not an array", pingBody(h, testKey, ok[0], nil), 400, apierror.InvalidBody, "urlList"},
		{"urlList of numbers", pingBody(h, testKey, []int{1}, nil), 400, apierror.InvalidBody, ""},
		{"urlList with null", []byte(`{"host":"docs.example","key":"` + testKey + `","urlList":["` + ok[0] + `",null]}`), 400, apierror.InvalidBody, "urlList[1]"},
		{"host missing", pingBody(nil, testKey, ok, nil), 400, apierror.InvalidHost, "host"},
		{"host with scheme", pingBody("https://docs.example", testKey, ok, nil), 400, apierror.InvalidHost, "host"},
		{"host an IPv4", pingBody("127.0.0.1", testKey, ok, nil), 400, apierror.InvalidHost, "host"},
		{"host an IPv6", pingBody("[::1]", testKey, ok, nil), 400, apierror.InvalidHost, "host"},
		{"host with port", pingBody("docs.example:8443", testKey, ok, nil), 400, apierror.InvalidHost, "host"},
		{"host with userinfo", pingBody("me@docs.example", testKey, ok, nil), 400, apierror.InvalidHost, "host"},
		{"host one label", pingBody("localhost", testKey, ok, nil), 400, apierror.InvalidHost, "host"},
		{"host with path", pingBody("docs.example/x", testKey, ok, nil), 400, apierror.InvalidHost, "host"},
		{"host with the Kelvin sign", pingBody("\u212Aelvin.example", testKey, []string{"https://kelvin.example/a.md"}, nil), 400, apierror.InvalidHost, "host"},
		{"host non-ASCII", pingBody("bücher.example", testKey, ok, nil), 400, apierror.InvalidHost, "host"},
		{"key missing", pingBody(h, nil, ok, nil), 400, apierror.InvalidKey, "key"},
		{"key short", pingBody(h, "abc1234", ok, nil), 400, apierror.InvalidKey, "key"},
		{"key long", pingBody(h, long, ok, nil), 400, apierror.InvalidKey, "key"},
		{"key bad char", pingBody(h, "abcd_efgh", ok, nil), 400, apierror.InvalidKey, "key"},
		{"urlList missing", pingBody(h, testKey, nil, nil), 400, apierror.InvalidURLList, "urlList"},
		{"urlList empty", pingBody(h, testKey, []string{}, nil), 400, apierror.InvalidURLList, "urlList"},
		{"urlList over 100", pingBody(h, testKey, roots(h, 0, 101), nil), 400, apierror.InvalidURLList, "urlList"},
		{"url http", pingBody(h, testKey, []string{ok[0], "http://docs.example/a/index.md"}, nil), 422, apierror.URLNotHTTPS, "urlList[1]"},
		{"url relative", pingBody(h, testKey, []string{"docs.example/a.md"}, nil), 422, apierror.URLNotHTTPS, "urlList[0]"},
		{"url not md", pingBody(h, testKey, []string{"https://docs.example/a/index.html"}, nil), 422, apierror.URLNotMarkdown, "urlList[0]"},
		{"url with query", pingBody(h, testKey, []string{"https://docs.example/a/index.md?v=2"}, nil), 422, apierror.URLNotMarkdown, "urlList[0]"},
		{"url other host", pingBody(h, testKey, []string{"https://evil.example/a/index.md"}, nil), 422, apierror.URLOffHost, "urlList[0]"},
		{"url host with the Kelvin sign", pingBody("kelvin.example", testKey, []string{"https://\u212Aelvin.example/a.md"}, nil), 422, apierror.URLOffHost, "urlList[0]"},
		{"url subdomain", pingBody(h, testKey, []string{"https://www.docs.example/a/index.md"}, nil), 422, apierror.URLOffHost, "urlList[0]"},
		{"url other port", pingBody(h, testKey, []string{"https://docs.example:8443/a/index.md"}, nil), 422, apierror.URLOffHost, "urlList[0]"},
		{"url userinfo", pingBody(h, testKey, []string{"https://u:p@docs.example/a/index.md"}, nil), 422, apierror.URLOffHost, "urlList[0]"},
		{"keyLocation other host", pingBody(h, testKey, ok, "https://evil.example/"+testKey+".txt"), 422, apierror.KeyLocationOffHost, "keyLocation"},
		{"keyLocation http", pingBody(h, testKey, ok, "http://docs.example/"+testKey+".txt"), 422, apierror.KeyLocationNotHTTPS, "keyLocation"},
		{"body over 64 KiB", pingBody(h, testKey, huge, nil), 413, apierror.BodyTooLarge, ""},
	}
	for _, c := range cases {
		resp, body := a.post("/api/ping", c.body)
		var e wire.ErrorBody
		_ = json.Unmarshal(body, &e)
		if resp.StatusCode != c.status || e.Error != c.err || e.Message == "" || (c.field != "" && e.Field != c.field) {
			t.Errorf("%s: %d %s, want %d %s field %q", c.name, resp.StatusCode, body, c.status, c.err, c.field)
		}
	}
	if n := len(verifyJobs(t, a.store)); n != 0 {
		t.Errorf("refused submissions queued %d jobs", n)
	}

	// 429: the host's 200 URLs of the day are taken.
	for i := range 2 {
		if resp, body := a.post("/api/ping", pingBody(h, testKey, roots(h, i*100, 100), nil)); resp.StatusCode != 202 {
			t.Fatalf("filling the cap: %d %s", resp.StatusCode, body)
		}
	}
	resp, body := a.post("/api/ping", pingBody("DOCS.example.", testKey, roots(h, 500, 1), nil))
	var e wire.ErrorBody
	_ = json.Unmarshal(body, &e)
	if resp.StatusCode != 429 || e.Error != apierror.DailyCapReached {
		t.Errorf("over the cap: %d %s", resp.StatusCode, body)
	}
	if resp, _ := a.post("/api/ping", pingBody("other.example", testKey, roots("other.example", 0, 1), nil)); resp.StatusCode != 202 {
		t.Errorf("another host is under its own cap: %d", resp.StatusCode)
	}
}

// An accepted ping answers the acknowledgement of contract 2.7 (validated
// against the document by the contract transport), counts distinct URLs,
// and queues one verify_ping job with the normalized host and key location.
func TestPingAccepted(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantFull)
	urls := []string{"https://Docs.Example/guide/index.md", "https://docs.example/guide/index.md", "https://docs.example:443/api.md"}
	resp, body := a.post("/api/ping", pingBody("Docs.Example.", testKey, urls, nil))
	if resp.StatusCode != 202 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var ack wire.PingAck
	if err := json.Unmarshal(body, &ack); err != nil {
		t.Fatal(err)
	}
	want := wire.PingAck{OK: true, State: "pendente", Host: "docs.example", Received: 2,
		KeyURL: "https://docs.example/" + testKey + ".txt", Message: ack.Message, APIIndex: publicBase + "/api/"}
	if ack != want || !strings.HasSuffix(ack.Message, ".") || strings.Count(ack.Message, ". ") != 0 {
		t.Errorf("ack %+v", ack)
	}
	js := verifyJobs(t, a.store)
	if len(js) != 1 || js[0].Host != "docs.example" || js[0].Key != testKey || js[0].KeyLocation != ack.KeyURL ||
		len(js[0].URLs) != 2 || js[0].URLs[0].URL != "https://docs.example/guide/index.md" || js[0].URLs[1].URL != "https://docs.example/api.md" {
		t.Fatalf("jobs %+v", js)
	}

	// A keyLocation elsewhere on the host is where the key is looked for.
	kl := "https://docs.example/.well-known/okf/" + testKey + ".txt"
	resp, body = a.post("/api/ping", pingBody("docs.example", testKey, urls[:1], kl))
	if err := json.Unmarshal(body, &ack); resp.StatusCode != 202 || err != nil || ack.KeyURL != kl || ack.Received != 1 {
		t.Fatalf("keyLocation: %d %s", resp.StatusCode, body)
	}

	// The status lists every URL pending, newest first, without the key.
	var page wire.PingStatusPage
	raw := a.get("/api/ping/status?host=DOCS.EXAMPLE", 200, &page)
	if page.Host != "docs.example" || len(page.Items) != 3 || page.Items[0].State != "pendente" ||
		page.Items[0].URL != urls[1] || strings.Contains(string(raw), testKey) {
		t.Errorf("status %s", raw)
	}

	// The worker's outcomes, as it records them, show with the bundle id
	// and the reason.
	queued := verifyJobs(t, a.store)
	var ids []int64
	for _, j := range queued {
		for _, u := range j.URLs {
			ids = append(ids, u.ID)
		}
	}
	if len(ids) != 3 {
		t.Fatalf("queued %+v", queued)
	}
	ctx := context.Background()
	if err := a.store.PublishPing(ctx, ids[0], "docs-example-guide-0a1b2c"); err != nil {
		t.Fatal(err)
	}
	if err := a.store.RejectPing(ctx, ids[1], "not_a_bundle"); err != nil {
		t.Fatal(err)
	}
	raw = a.get("/api/ping/status?host=docs.example", 200, &page)
	states := map[wire.PingState]int{}
	for _, it := range page.Items {
		states[it.State]++
		switch it.State {
		case wire.PingPublished:
			if it.BundleID == nil || *it.BundleID != "docs-example-guide-0a1b2c" || it.CheckedAt == nil || it.Reason != nil {
				t.Errorf("published %s", raw)
			}
		case wire.PingRejected:
			if it.Reason == nil || *it.Reason != "not_a_bundle" || it.CheckedAt == nil || it.BundleID != nil {
				t.Errorf("rejected %s", raw)
			}
		}
	}
	if states[wire.PingPending] != 1 || states[wire.PingPublished] != 1 || states[wire.PingRejected] != 1 {
		t.Errorf("states %v: %s", states, raw)
	}

	a.getError("/api/ping/status", 400, apierror.InvalidHost)
	a.getError("/api/ping/status?host=10.0.0.1", 400, apierror.InvalidHost)
	var empty wire.PingStatusPage
	if a.get("/api/ping/status?host=nobody.example", 200, &empty); len(empty.Items) != 0 {
		t.Errorf("unknown host %+v", empty)
	}
}

// 50 concurrent pings of 10 distinct URLs each for one host: exactly 200
// URLs are accepted (20 answers 202, 30 answer 429) and 20 jobs queued.
func TestPingDailyCapConcurrent(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	h := "busy.example"
	var mu sync.Mutex
	statuses := map[int]int{}
	accepted := 0
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			resp, body := a.post("/api/ping", pingBody(h, testKey, roots(h, i*10, 10), nil))
			var ack wire.PingAck
			_ = json.Unmarshal(body, &ack)
			mu.Lock()
			defer mu.Unlock()
			statuses[resp.StatusCode]++
			if resp.StatusCode == 202 {
				accepted += ack.Received
			}
		})
	}
	wg.Wait()
	if statuses[202] != 20 || statuses[429] != 30 || accepted != 200 {
		t.Fatalf("statuses %v, accepted %d URLs", statuses, accepted)
	}
	n := 0
	for _, j := range verifyJobs(t, a.store) {
		n += len(j.URLs)
	}
	if n != 200 {
		t.Fatalf("%d URLs queued", n)
	}
}
