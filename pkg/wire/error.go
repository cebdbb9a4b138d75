package wire

// ErrorBody is the JSON body of every error the API answers:
// {"error": "<name>", "message": "<one sentence>", "field": "<input>"}.
// The names and the status each one answers with are listed once, in the
// API's error table (services/api/server/apierror).
type ErrorBody struct {
	Error   string `json:"error"`
	Message string `json:"message"`
	Field   string `json:"field,omitempty"`
}
