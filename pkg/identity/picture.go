package identity

import (
	"bytes"
	"errors"
	"fmt"

	"golang.org/x/image/webp"
)

// MaxPicture is the largest account picture, in bytes (contract section 8).
const MaxPicture = 64 << 10

// ErrPicture is returned for a picture that is not a WebP image of at most
// MaxPicture bytes.
var ErrPicture = errors.New("identity: the picture is not a WebP image of at most 64 KiB")

// CheckPicture checks an account's picture: at most MaxPicture bytes, and a
// WebP header that decodes (golang.org/x/image/webp) to a non-empty image.
func CheckPicture(b []byte) error {
	if len(b) == 0 || len(b) > MaxPicture {
		return fmt.Errorf("%w: %d bytes", ErrPicture, len(b))
	}
	cfg, err := webp.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrPicture, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return fmt.Errorf("%w: %dx%d", ErrPicture, cfg.Width, cfg.Height)
	}
	return nil
}
