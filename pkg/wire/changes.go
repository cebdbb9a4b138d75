package wire

// The change feed, GET /api/changes (an extension; contract section 6
// leaves events open): what happened to the live set, in commit order.

// ChangeKind is the event of one change of the live set.
type ChangeKind string

// The events. A client that applies them in order (added and updated: the
// bundle is in the set; removed: it is not) holds the live set.
const (
	ChangeAdded   ChangeKind = "added"   // a bundle became live
	ChangeUpdated ChangeKind = "updated" // a live bundle's card changed
	ChangeRemoved ChangeKind = "removed" // a live bundle left the live set
)

// RemovalReason is why a bundle left the live set.
type RemovalReason string

// The reasons of a tombstone.
const (
	RemovedRepoGone    RemovalReason = "repo_gone"    // its repository no longer resolves
	RemovedFileGone    RemovalReason = "file_gone"    // its root left the repository's tree
	RemovedKeyMismatch RemovalReason = "key_mismatch" // a domain's IndexNow key file stopped matching
	RemovedMadeLow     RemovalReason = "made_low"     // kept out of search (example path, duplicate)
	RemovedDeleted     RemovalReason = "deleted"      // the row was deleted by hand (the service never deletes)
)

// Tombstone says why a removed bundle left the live set.
type Tombstone struct {
	Reason RemovalReason `json:"reason"`
}

// Change is one event of the feed.
type Change struct {
	Event     ChangeKind `json:"event"`
	ID        string     `json:"id"`        // the bundle id
	At        Timestamp  `json:"at"`        // when the change was written
	API       *string    `json:"api"`       // the card's absolute URL; nil for removed
	Tombstone *Tombstone `json:"tombstone"` // set exactly for removed
}

// ChangePage is one page of the feed. Items is never nil. Next is the
// cursor to ask with next (since=Next), also when the page is empty: the
// feed has no end, and a client polls it. More says whether events were
// already waiting past this page.
type ChangePage struct {
	Items   []Change `json:"items"`
	Limit   int      `json:"limit"`
	Next    string   `json:"next"`
	NextURL string   `json:"next_url"` // absolute URL of the next page
	More    bool     `json:"more"`
}
