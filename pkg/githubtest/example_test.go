package githubtest_test

import (
	"context"
	"fmt"
	"net/http"

	"github.com/okfindex/okf-index/pkg/githubtest"
	"github.com/shurcooL/githubv4"
)

type tokenTransport struct{}

func (tokenTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "bearer any-token")
	return http.DefaultTransport.RoundTrip(r)
}

// Example points the real githubv4 client at a local server holding one
// repository and reads its bundle root.
func Example() {
	s := githubtest.New(nil, githubtest.Options{})
	defer s.Close()
	s.AddRepo(githubtest.Repo{Owner: "acme", Name: "kb", Stars: 3, Files: map[string][]byte{
		".okf/index.md": []byte("---\nokf_version: \"0.2\"\n---\n# KB\n"),
	}})
	client := githubv4.NewEnterpriseClient(s.GraphQLURL(), &http.Client{Transport: tokenTransport{}})
	var q struct {
		Repository struct {
			StargazerCount int
			Object         struct {
				Blob struct{ Text string } `graphql:"... on Blob"`
			} `graphql:"object(expression: \"HEAD:.okf/index.md\")"`
		} `graphql:"repository(owner: \"acme\", name: \"kb\")"`
		RateLimit struct{ Cost, Remaining int }
	}
	if err := client.Query(context.Background(), &q, nil); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(q.Repository.StargazerCount, q.RateLimit.Cost, q.RateLimit.Remaining)
	fmt.Print(q.Repository.Object.Blob.Text)
	// Output:
	// 3 1 4999
	// ---
	// okf_version: "0.2"
	// ---
	// # KB
}
