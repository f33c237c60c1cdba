package egress

import "net"

// Endpoint is where the guest finds the filter inside its own network
// namespace.
type Endpoint struct {
	DNS   string // host:port of the DNS server (UDP and TCP)
	Proxy string // host:port of the HTTP proxy
}

// ProxyURL is the value of the guest's HTTP_PROXY and HTTPS_PROXY.
func (e Endpoint) ProxyURL() string { return "http://" + e.Proxy }

// GuestEnv is the environment that sends the guest's HTTP clients through
// the proxy (curl reads only the lower-case http_proxy).
func (e Endpoint) GuestEnv() map[string]string {
	u := e.ProxyURL()
	return map[string]string{
		"HTTP_PROXY": u, "HTTPS_PROXY": u, "http_proxy": u, "https_proxy": u,
		"NO_PROXY": "localhost,127.0.0.1,::1", "no_proxy": "localhost,127.0.0.1,::1",
	}
}

// ResolvConf is the guest's /etc/resolv.conf.
func (e Endpoint) ResolvConf() string {
	host, _, _ := net.SplitHostPort(e.DNS)
	return "nameserver " + host + "\n"
}

// GuestEndpoint is where Attach puts the filter: the machine's own
// loopback, the only interface its network namespace has.
var GuestEndpoint = Endpoint{DNS: "127.0.0.1:53", Proxy: "127.0.0.1:3128"}

// VethEndpoint is where AttachVeth puts the filter: its end of the link.
var VethEndpoint = Endpoint{DNS: "10.254.254.1:53", Proxy: "10.254.254.1:3128"}
