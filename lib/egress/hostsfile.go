package egress

import (
	"bufio"
	"context"
	"net"
	"net/netip"
	"os"
	"strings"
)

// HostsFileEnv names a hosts(5) file whose entries the filter's resolver
// answers before the host's (like Docker's --add-host, for names that
// only the evaluation knows: a local mirror, a test server).
const HostsFileEnv = "SHELLBOX_EGRESS_HOSTS"

// hostsResolver answers from a hosts file first, then from next.
type hostsResolver struct {
	names map[string][]netip.Addr
	next  Resolver
}

// defaultResolver is the host's resolver, behind the file named by
// HostsFileEnv when that is set.
func defaultResolver() (Resolver, error) {
	path := os.Getenv(HostsFileEnv)
	if path == "" {
		return net.DefaultResolver, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := &hostsResolver{names: map[string][]netip.Addr{}, next: net.DefaultResolver}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		addr, err := netip.ParseAddr(fields[0])
		if err != nil {
			continue
		}
		for _, name := range fields[1:] {
			name = canonicalName(name)
			r.names[name] = append(r.names[name], addr.Unmap())
		}
	}
	return r, sc.Err()
}

func (r *hostsResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	addrs, ok := r.names[canonicalName(host)]
	if !ok {
		return r.next.LookupNetIP(ctx, network, host)
	}
	var out []netip.Addr
	for _, a := range addrs {
		if network == "ip" || network == "ip4" && a.Is4() || network == "ip6" && a.Is6() {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return out, nil
}
