package config

import "testing"

func TestLoadClients(t *testing.T) {
	tests := []struct {
		env     map[string]string
		header  string
		rate    int
		wantErr bool
	}{
		{env: nil, header: "", rate: DefaultPingRatePerMinute},
		{env: map[string]string{"TRUSTED_PROXY_HEADER": "x-forwarded-for"}, header: "X-Forwarded-For", rate: 10},
		{env: map[string]string{"TRUSTED_PROXY_HEADER": "X-Real-IP", "PING_RATE_PER_MINUTE": "60"}, header: "X-Real-Ip", rate: 60},
		{env: map[string]string{"TRUSTED_PROXY_HEADER": "Cookie"}, wantErr: true},
		{env: map[string]string{"PING_RATE_PER_MINUTE": "0"}, wantErr: true},
		{env: map[string]string{"PING_RATE_PER_MINUTE": "ten"}, wantErr: true},
		{env: map[string]string{"PING_RATE_PER_MINUTE": "100001"}, wantErr: true},
	}
	for _, tc := range tests {
		c, err := Load(func(k string) string { return tc.env[k] })
		if tc.wantErr {
			if err == nil {
				t.Errorf("%v: no error", tc.env)
			}
			continue
		}
		if err != nil || c.TrustedProxyHeader != tc.header || c.PingRatePerMinute != tc.rate {
			t.Errorf("%v: %q %d %v, want %q %d", tc.env, c.TrustedProxyHeader, c.PingRatePerMinute, err, tc.header, tc.rate)
		}
	}
}
