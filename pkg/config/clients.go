package config

import (
	"fmt"
	"net/http"
	"strconv"
)

// Who a request comes from, and how fast one client may submit pings.

// DefaultPingRatePerMinute is the default of PING_RATE_PER_MINUTE.
const DefaultPingRatePerMinute = 10

// loadClients reads TRUSTED_PROXY_HEADER and PING_RATE_PER_MINUTE into c.
func loadClients(getenv func(string) string, c *Config) error {
	if h := getenv("TRUSTED_PROXY_HEADER"); h != "" {
		canon := http.CanonicalHeaderKey(h)
		if canon != "X-Forwarded-For" && canon != "X-Real-Ip" && canon != "Cf-Connecting-Ip" && canon != "True-Client-Ip" && canon != "Fly-Client-Ip" {
			return fmt.Errorf("config: TRUSTED_PROXY_HEADER %q must be X-Forwarded-For, X-Real-IP, CF-Connecting-IP, True-Client-IP or Fly-Client-IP", h)
		}
		c.TrustedProxyHeader = canon
	}
	c.PingRatePerMinute = DefaultPingRatePerMinute
	if v := getenv("PING_RATE_PER_MINUTE"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100000 {
			return fmt.Errorf("config: PING_RATE_PER_MINUTE %q must be a whole number from 1 to 100000", v)
		}
		c.PingRatePerMinute = n
	}
	return nil
}
