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

// MaxPictureSide bounds a picture's width and height, in pixels, checked
// before it is decoded (a small file can declare a huge canvas).
const MaxPictureSide = 1024

// CheckPicture checks an account's picture: at most MaxPicture bytes, a
// WebP header (golang.org/x/image/webp) of a non-empty image at most
// MaxPictureSide a side, and a body that decodes whole: a truncated or
// corrupt file is refused, not only a bad header.
func CheckPicture(b []byte) error {
	if len(b) == 0 || len(b) > MaxPicture {
		return fmt.Errorf("%w: %d bytes", ErrPicture, len(b))
	}
	cfg, err := webp.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrPicture, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxPictureSide || cfg.Height > MaxPictureSide {
		return fmt.Errorf("%w: %dx%d (at most %d a side)", ErrPicture, cfg.Width, cfg.Height, MaxPictureSide)
	}
	if _, err := webp.Decode(bytes.NewReader(b)); err != nil {
		return fmt.Errorf("%w: %v", ErrPicture, err)
	}
	return nil
}
