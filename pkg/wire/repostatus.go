package wire

// The owner status of a repository, GET /api/status?repo=owner/repo: what
// the GitHub sweep made of every index.md it saw there. An extension of the
// contract, shaped like GET /api/ping/status (PingStatusPage): a page of
// items with next, estado publicado/rejeitado, bundle_id, reason words and
// checked_at as there.

// RepoStatusPage is the answer of GET /api/status: the repository, what the
// sweep knows of it, and a page of its index.md files in path order. Next is
// the URL of the next page, nil on the last.
type RepoStatusPage struct {
	Repo string `json:"repo"` // owner/repo, lowercase
	// Known is false when the index has not seen the repository; Message
	// then says how discovery finds repositories.
	Known        bool     `json:"known"`
	Message      string   `json:"message"`
	DiscoveredBy []string `json:"discovered_by"` // seed, repo_search, code_search
	// Gone is set when GitHub no longer serves the repository (deleted,
	// renamed away, private): its bundles are hidden.
	Gone bool `json:"gone"`
	// Commit is the default branch's head commit at the latest read, and
	// CheckedAt when that read was; both nil before the first read.
	Commit    *string    `json:"commit"`
	CheckedAt *Timestamp `json:"checked_at"`
	// NextCheckAt is the earliest time of the next read, derived from the
	// sweep's schedule; NextCheck says how (and why there is none).
	NextCheckAt *Timestamp      `json:"next_check_at"`
	NextCheck   string          `json:"next_check"`
	Items       []RepoRootState `json:"items"`
	Next        *string         `json:"next"`
}

// RepoRootState is one index.md of a repository.
type RepoRootState struct {
	Path string `json:"path"`
	URL  string `json:"url"` // the file's page on the code host
	// State is PingPublished for a bundle root (Visibility says where it
	// answers) and PingRejected for a file that is not one (Reason says why).
	State      PingState   `json:"estado"`
	Visibility *Visibility `json:"visibility"`
	BundleID   *string     `json:"bundle_id"`
	// Reason is a word (see the RootReason* constants and okf.Reason*): why a
	// bundle is low or hidden, or why the file is not a bundle; nil for a
	// live bundle.
	Reason *string `json:"reason"`
	// DuplicateOf is the live bundle a low duplicate copies.
	DuplicateOf *string `json:"duplicate_of"`
	// Detail is the parser's sentence for a file that is not a bundle.
	Detail *string `json:"detail"`
	// Warnings are what okfctl lint says of the root at the latest read.
	Warnings []string `json:"warnings"`
	// Links counts the root's concept links inside the repository; nil when
	// no read checked them (a tree listing cut short, a bundle not read since).
	Links     *LinkCount `json:"links"`
	Commit    *string    `json:"commit"`
	CheckedAt *Timestamp `json:"checked_at"`
}

// LinkCount is how many distinct concept links of a root stay inside its
// repository, and how many of them point at a file the repository lacks.
type LinkCount struct {
	Total   int `json:"total"`
	Missing int `json:"missing"`
}

// Why a bundle root is low or hidden (RepoRootState.Reason).
const (
	RootReasonExamplePath    = "example_path"    // low: an example or fixture path
	RootReasonDuplicate      = "duplicate"       // low: an exact copy of DuplicateOf
	RootReasonNotInTree      = "not_in_tree"     // hidden: the latest read no longer saw the file
	RootReasonRepositoryGone = "repository_gone" // hidden: GitHub no longer serves the repository
	RootReasonWithdrawn      = "withdrawn"       // hidden since the read, by the operator
)
