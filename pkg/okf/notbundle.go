package okf

import (
	"errors"
	"fmt"
)

// Why a file is not a bundle root: the Reason of a NotBundleError, the
// words the owner status (GET /api/status) publishes.
const (
	ReasonNoFrontmatter        = "no_frontmatter"          // no "---" block at the start
	ReasonFrontmatterNotClosed = "frontmatter_not_closed"  // the block never ends
	ReasonFrontmatterTooLarge  = "frontmatter_too_large"   // longer than MaxFrontmatterBytes
	ReasonFrontmatterNotYAML   = "frontmatter_not_yaml"    // not valid YAML
	ReasonFrontmatterNotMap    = "frontmatter_not_mapping" // YAML, but not a mapping
	ReasonNoVersion            = "no_okf_version"          // a mapping without a usable okf_version
)

// NotBundleError is the error Parse returns for a file that is not a bundle
// root; it wraps ErrNotBundle, so errors.Is(err, ErrNotBundle) holds.
type NotBundleError struct {
	Reason string // one of the Reason* words
	Detail string // the sentence after ErrNotBundle's, "" for ReasonNoVersion
}

func (e *NotBundleError) Error() string {
	if e.Detail == "" {
		return ErrNotBundle.Error()
	}
	return ErrNotBundle.Error() + " (" + e.Detail + ")"
}

func (e *NotBundleError) Unwrap() error { return ErrNotBundle }

// NotBundleReason returns the Reason of a Parse error that says the file is
// not a bundle root, and "" for any other error.
func NotBundleReason(err error) string {
	var nb *NotBundleError
	if errors.As(err, &nb) {
		return nb.Reason
	}
	return ""
}

func notBundle(reason, format string, args ...any) error {
	return &NotBundleError{Reason: reason, Detail: fmt.Sprintf(format, args...)}
}
