package wire

// PingAck is the answer of an accepted submission, POST /api/ping
// (contract 2.7).
type PingAck struct {
	OK       bool      `json:"ok"`
	State    PingState `json:"estado"` // always PingPending
	Host     string    `json:"host"`
	Received int       `json:"recebidos"`
	KeyURL   string    `json:"chave_em"`
	Message  string    `json:"mensagem"`
	APIIndex string    `json:"api_index"`
}

// PingState is what became of one submitted URL (contract 3.2).
type PingState string

// The states of a submitted URL.
const (
	PingPending   PingState = "pendente"  // queued; the key file is not verified yet
	PingPublished PingState = "publicado" // the key matched and the root is a bundle
	PingRejected  PingState = "rejeitado" // see PingStatus.Reason
)

// PingStatus is what became of one submitted URL. It holds no secret: the
// key of the submission is never shown.
type PingStatus struct {
	URL      string    `json:"url"`
	State    PingState `json:"estado"`
	BundleID *string   `json:"bundle_id"` // set when published
	// Reason is why it was rejected; while pending, the last error of a
	// verification that is being retried.
	Reason     *string    `json:"reason"`
	ReceivedAt Timestamp  `json:"received_at"`
	CheckedAt  *Timestamp `json:"checked_at"` // when it was decided; nil while pending
	// RetryAt is when a pending URL's verification will be tried again
	// after a failed attempt (in the past: due, waiting for a worker); nil
	// otherwise.
	RetryAt *Timestamp `json:"retry_at"`
}

// PingStatusPage is the answer of GET /api/ping/status: a page of the
// submitted URLs of one host, newest first. Next is the URL of the next
// page, nil on the last.
type PingStatusPage struct {
	Host  string       `json:"host"`
	Items []PingStatus `json:"items"`
	Next  *string      `json:"next"`
}
