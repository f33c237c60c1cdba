// Package egress is the host-side network filter of allowlisted machines:
// it answers the guest's DNS, admits TCP connections only to allowed names
// and addresses (checking the TLS SNI or the HTTP Host of each), and writes
// one JSON line per decision.
//
// The guest reaches the filter only through sockets the host opens where
// nothing else is: on the loopback of the machine's own network namespace
// (Attach: bubblewrap sandboxes, runc containers, and QEMU's namespace,
// whose user-mode network maps the guest's gateway there), or on the far
// end of a veth that is the namespace's only card (AttachVeth: gVisor,
// whose network stack is not the kernel's). There is a DNS server and an
// HTTP proxy (CONNECT for TLS, absolute URIs for plain HTTP) whose address
// the backend puts in the guest's HTTP_PROXY and HTTPS_PROXY. Intercept
// also makes a TUN device the namespace's default route, served by a
// user-space TCP/IP stack in this process, so that programs that ignore
// the proxy reach allowed names too (through synthetic addresses the DNS
// hands out) under the same checks, and everything else they try is
// refused and recorded: in the machine's namespace where its stack is the
// kernel's (local, runc, and QEMU, whose user-mode network opens the
// guest's connections from it), or in the filter's own namespace behind
// the veth, which forwards there (AttachVethIntercepting, for gVisor).
// Without it everything else the guest tries (another resolver, an IP
// literal, UDP, ICMP, raw sockets) has no route, so the filter fails
// closed for programs that ignore the proxy. IPv6 is routed only where
// there is an intercepting device: it is the IPv6 default route of the
// machine's namespace (local, runc, QEMU), or, behind a veth, the link
// gets IPv6 addresses (IPv6 is enabled on both of its ends, where Docker
// had disabled it) and the filter's namespace forwards IPv6 to its device
// (AttachVethIntercepting; runsc takes the IPv6 route up at start, as
// egresstest's IPv6 option checks). IPv6 literals and CIDRs on the allowlist
// are reached, every other IPv6 destination is refused; names resolve to
// synthetic IPv4 addresses only (AAAA queries get an empty answer).
// No host firewall rule is involved.
//
// Entries follow Harbor's allowed_hosts: "example.com" admits that name
// alone, "*.example.com" admits every name below example.com (any depth)
// but not example.com itself, IP literals and CIDR ranges admit those
// addresses. Bare top-level names and wildcards over a public suffix are
// refused.
package egress
