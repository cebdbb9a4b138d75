package vitrine

import "testing"

func TestRound2(t *testing.T) {
	for n, want := range map[int64]int64{
		0: 0, 1: 1, 7: 7, 10: 10, 99: 99, 100: 100, 101: 100, 104: 100, 105: 110, 149: 150, 994: 990, 995: 1000,
		1234: 1200, 1250: 1300, 1249: 1200, 98765: 99000, 123456789: 120000000, -1234: -1200,
	} {
		if got := Round2(n); got != want {
			t.Errorf("Round2(%d) = %d, want %d", n, got, want)
		}
	}
}

func TestComplementShare(t *testing.T) {
	for _, tc := range []struct {
		bad, total int64
		want       float64
	}{
		{0, 10, 1},
		{13, 10000, 0.9987},
		{1, 3, 0.67}, // 0.333 -> 0.33
		{1, 7, 0.86}, // 0.1428 -> 0.14
		{5, 10, 0.5}, // 0.5
		{10, 10, 0},  // every request failed
		{1, 1000000, 0.999999},
		{123, 100000, 0.9988}, // 0.00123 -> 0.0012
	} {
		if got := complementShare(tc.bad, tc.total); got != tc.want {
			t.Errorf("complementShare(%d, %d) = %v, want %v", tc.bad, tc.total, got, tc.want)
		}
	}
}
