package worker

import (
	"testing"
	"time"
)

func TestHourlySchedule(t *testing.T) {
	s := hourlySchedule{after: 2 * time.Minute}
	at := func(h, m, sec int) time.Time { return time.Date(2026, 11, 26, h, m, sec, 0, time.UTC) }
	for _, tc := range []struct{ now, want time.Time }{
		{at(10, 0, 0), at(10, 2, 0)},
		{at(10, 1, 59), at(10, 2, 0)},
		{at(10, 2, 0), at(11, 2, 0)},
		{at(10, 59, 0), at(11, 2, 0)},
		{at(23, 30, 0), time.Date(2026, 11, 27, 0, 2, 0, 0, time.UTC)},
	} {
		if got := s.Next(tc.now); !got.Equal(tc.want) {
			t.Errorf("Next(%s) = %s, want %s", tc.now, got, tc.want)
		}
	}
}
