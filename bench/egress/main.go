// Command egress measures the egress filter against direct loopback in one
// run: the median latency of an HTTP request (a new client connection
// each) and the throughput of a download, through the filter's proxy
// (plain HTTP: each request's head parsed, the body relayed by its
// framing; HTTPS: a CONNECT tunnel) and straight to the server.
//
//	go run ./bench/egress [-n 2000] [-mib 100] [-rounds 9]
//
// Targets (issue 13): latency at most 1.5x direct, throughput at least
// 0.7x direct.
//
// Plain HTTP through the filter pays for a second TCP connection on
// loopback: the filter reads and writes each byte once more (256 KiB at
// a time, a few system calls per MiB), and the kernel's TCP work per byte
// doubles, so the filtered download costs 1.25 to 1.5 times the CPU time
// of the direct one (the CPU line; 1.5 to 1.9 times when the filter
// spliced socket to socket, which looks cheaper but is not here, see
// lib/egress/relay.go). On a busy machine, where the bench gets a share
// of the two cores rather than both, the throughput ratio follows that
// cost. HTTPS is bounded by the client's decryption instead, which hides
// the second connection.
//
// Downloads alternate (direct, then filtered) round by round; besides
// the best of each path the bench prints the median of the rounds'
// ratios, which a busy machine disturbs less than the best alone.
package main

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"slices"
	"strconv"
	"syscall"
	"time"

	"github.com/shellbox/shellbox/lib/egress"
)

type fixedResolver map[string]netip.Addr

func (r fixedResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := r[host]; ok {
		return []netip.Addr{a}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

func main() {
	n := flag.Int("n", 2000, "requests per latency measurement")
	mib := flag.Int("mib", 100, "MiB per download")
	rounds := flag.Int("rounds", 9, "downloads per path (the best counts)")
	flag.Parse()
	if err := run(*n, *mib, *rounds); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(n, mib, rounds int) error {
	chunk := make([]byte, 1<<20)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/big" {
			size, _ := strconv.Atoi(r.URL.Query().Get("mib"))
			w.Header().Set("Content-Length", strconv.Itoa(size<<20))
			for range size {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
			return
		}
		w.Write([]byte("ok"))
	})}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go srv.Serve(l)
	defer srv.Close()
	port := l.Addr().(*net.TCPAddr).Port
	tl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	tlsSrv := httptest.NewUnstartedServer(srv.Handler)
	tlsSrv.Listener = tl
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	tlsPort := tl.Addr().(*net.TCPAddr).Port

	policy, err := egress.Parse(egress.ModeAllowlist, []string{"bench.test"})
	if err != nil {
		return err
	}
	f := egress.New(egress.Config{Machine: "bench", Policy: policy, Log: io.Discard,
		Resolver: fixedResolver{"bench.test": netip.MustParseAddr("127.0.0.1")}})
	defer f.Close()
	pl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go f.ServeProxy(pl)
	proxyURL, _ := url.Parse("http://" + pl.Addr().String())

	insecure := &tls.Config{InsecureSkipVerify: true}
	direct := &http.Client{Transport: &http.Transport{DisableKeepAlives: true, TLSClientConfig: insecure}}
	filtered := &http.Client{Transport: &http.Transport{DisableKeepAlives: true, Proxy: http.ProxyURL(proxyURL), TLSClientConfig: insecure}}
	directURL := fmt.Sprintf("http://127.0.0.1:%d", port)
	filteredURL := fmt.Sprintf("http://bench.test:%d", port)

	get := func(c *http.Client, u string) (int64, error) {
		resp, err := c.Get(u)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			return 0, fmt.Errorf("%s: %s", u, resp.Status)
		}
		return io.Copy(io.Discard, resp.Body)
	}
	// Direct and filtered requests alternate, so that both see the same
	// load on a shared machine.
	latency := func(directURL, filteredURL string) (time.Duration, time.Duration, error) {
		var d, f []time.Duration
		for range n {
			for i, c := range []*http.Client{direct, filtered} {
				u := []string{directURL, filteredURL}[i]
				start := time.Now()
				if _, err := get(c, u+"/small"); err != nil {
					return 0, 0, err
				}
				if i == 0 {
					d = append(d, time.Since(start))
				} else {
					f = append(f, time.Since(start))
				}
			}
		}
		slices.Sort(d)
		slices.Sort(f)
		return d[len(d)/2], f[len(f)/2], nil
	}
	// throughput is the best of rounds downloads per path, and the CPU
	// time the whole process (client, server and, for the filtered path,
	// filter) spent per GiB: the cost of a path, which a busy machine
	// disturbs less than the time.
	// throughput also returns the median of the rounds' ratios
	// (filtered over direct, measured back to back).
	throughput := func(directURL, filteredURL string) (best, cpuPerGiB [2]float64, medianRatio float64, err error) {
		var cpu [2]time.Duration
		var ratios []float64
		for range rounds {
			var speed [2]float64
			for i, c := range []*http.Client{direct, filtered} {
				u := []string{directURL, filteredURL}[i]
				start, cpu0 := time.Now(), processCPU()
				got, err := get(c, fmt.Sprintf("%s/big?mib=%d", u, mib))
				if err != nil {
					return best, cpuPerGiB, 0, err
				}
				if got != int64(mib)<<20 {
					return best, cpuPerGiB, 0, fmt.Errorf("downloaded %d bytes, want %d", got, int64(mib)<<20)
				}
				speed[i] = float64(got) / (1 << 20) / time.Since(start).Seconds()
				best[i] = max(best[i], speed[i])
				cpu[i] += processCPU() - cpu0
			}
			ratios = append(ratios, speed[1]/speed[0])
		}
		for i := range cpu {
			cpuPerGiB[i] = cpu[i].Seconds() / (float64(rounds*mib) / 1024)
		}
		slices.Sort(ratios)
		return best, cpuPerGiB, ratios[len(ratios)/2], nil
	}
	verdict := func(ok bool) string {
		if ok {
			return "meets"
		}
		return "MISSES"
	}
	httpsDirect := fmt.Sprintf("https://127.0.0.1:%d", tlsPort)
	httpsFiltered := fmt.Sprintf("https://bench.test:%d", tlsPort)
	for _, p := range []struct{ name, direct, filtered string }{
		{"HTTP (the filter's forward proxy)", directURL, filteredURL},
		{"HTTPS (a CONNECT tunnel, SNI checked)", httpsDirect, httpsFiltered},
	} {
		if _, _, err := latency(p.direct, p.filtered); err != nil { // warm both paths
			return err
		}
		dl, fl, err := latency(p.direct, p.filtered)
		if err != nil {
			return err
		}
		tp, cpu, median, err := throughput(p.direct, p.filtered)
		if err != nil {
			return err
		}
		dt, ft := tp[0], tp[1]
		fmt.Printf("%s\n", p.name)
		fmt.Printf("  request latency, median of %d (new connection each)\n", n)
		fmt.Printf("    direct loopback      %8.1f µs\n", float64(dl.Nanoseconds())/1000)
		fmt.Printf("    through the filter   %8.1f µs   %.2fx direct (%s target <= 1.5x)\n",
			float64(fl.Nanoseconds())/1000, float64(fl)/float64(dl), verdict(float64(fl) <= 1.5*float64(dl)))
		fmt.Printf("  %d MiB download, best of %d\n", mib, rounds)
		fmt.Printf("    direct loopback      %8.0f MiB/s\n", dt)
		fmt.Printf("    through the filter   %8.0f MiB/s   %.2fx direct (%s target >= 0.7x)\n", ft, ft/dt, verdict(ft >= 0.7*dt))
		fmt.Printf("    round by round       %8.2fx direct, the median of %d back-to-back pairs\n", median, rounds)
		fmt.Printf("    CPU time per GiB     %8.2f s direct, %.2f s through the filter (all %d downloads each)\n", cpu[0], cpu[1], rounds)
	}
	s := f.Summary()
	if len(s.Allowed) != 1 || s.Allowed[0].Host != "bench.test" || len(s.Blocked) != 0 {
		return fmt.Errorf("unexpected decisions: %+v", s)
	}
	return nil
}

// processCPU is the CPU time (user and system) of this process so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
