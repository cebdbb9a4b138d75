package wire

import (
	"errors"
	"time"
)

// Timestamp is a UTC time that encodes as "YYYY-MM-DD HH:MM:SS" in JSON.
type Timestamp struct{ time.Time }

// TimestampLayout is the contract's time format.
const TimestampLayout = "2006-01-02 15:04:05"

// MarshalJSON encodes the time in the contract's layout, in UTC.
func (t Timestamp) MarshalJSON() ([]byte, error) {
	return []byte(`"` + t.UTC().Format(TimestampLayout) + `"`), nil
}

// UnmarshalJSON decodes the contract's layout.
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return errors.New("wire: timestamp must be a JSON string")
	}
	v, err := time.Parse(TimestampLayout, string(b[1:len(b)-1]))
	if err != nil {
		return err
	}
	t.Time = v
	return nil
}
