package config

import "testing"

func TestVitrineCollector(t *testing.T) {
	for v, want := range map[string]bool{"": true, "on": true, "off": false} {
		c, err := Load(func(k string) string { return map[string]string{"VITRINE_COLLECTOR": v}[k] })
		if err != nil || c.VitrineCollector != want {
			t.Errorf("VITRINE_COLLECTOR=%q: %v %v, want %v", v, c.VitrineCollector, err, want)
		}
	}
	for _, v := range []string{"yes", "ON", "1", "false"} {
		if _, err := Load(func(k string) string { return map[string]string{"VITRINE_COLLECTOR": v}[k] }); err == nil {
			t.Errorf("VITRINE_COLLECTOR=%q accepted", v)
		}
	}
}
