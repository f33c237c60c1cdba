// Command probe is the guest side of egresstest: each mode tries one way
// out of an allowlisted machine and prints one line saying what happened.
//
//	probe fetch URL            GET through the proxy of the environment (TLS not verified)
//	probe direct URL           GET ignoring the proxy variables, as many programs do
//	probe tls ADDR SNI         a direct TLS handshake to ADDR with SNI (not verified)
//	probe slow URL             GET, then read until the stream ends
//	probe resolve NAME         the system resolver (/etc/resolv.conf)
//	probe tcp ADDR             a direct TCP connection, bypassing the proxy
//	probe udp ADDR             a DNS query by UDP, waiting for any reply
//	probe sni PROXY HOST:PORT SNI   CONNECT to HOST, then a ClientHello for SNI
//	probe icmp IP              a raw ICMP echo, waiting for the reply
//	probe flood PROXY N        N CONNECTs that never send a ClientHello and N connections
//	                           of garbage, held open together for a while
package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Println("usage: probe MODE ARG...")
		os.Exit(2)
	}
	arg := os.Args[2]
	switch os.Args[1] {
	case "fetch", "slow", "direct":
		proxy := http.ProxyFromEnvironment
		if os.Args[1] == "direct" {
			proxy = nil
		}
		c := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{
			Proxy: proxy, TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
		resp, err := c.Get(arg)
		if err != nil {
			fmt.Println("error", err)
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if os.Args[1] == "slow" {
			fmt.Println("ended after", len(b), "bytes:", err)
			return
		}
		fmt.Printf("status %d %s\n", resp.StatusCode, b)
	case "resolve":
		addrs, err := net.DefaultResolver.LookupHost(context.Background(), arg)
		if err != nil {
			fmt.Println("error", err)
			return
		}
		fmt.Println("addrs", addrs)
	case "tcp":
		c, err := net.DialTimeout("tcp", arg, 5*time.Second)
		if err != nil {
			fmt.Println("error", err)
			return
		}
		c.Close()
		fmt.Println("connected")
	case "udp":
		c, err := net.DialTimeout("udp", arg, 5*time.Second)
		if err != nil {
			fmt.Println("error", err)
			return
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(3 * time.Second))
		if _, err := c.Write([]byte("\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x07example\x03com\x00\x00\x01\x00\x01")); err != nil {
			fmt.Println("error", err)
			return
		}
		if _, err := c.Read(make([]byte, 512)); err != nil {
			fmt.Println("error", err)
			return
		}
		fmt.Println("answered")
	case "sni":
		c, err := net.DialTimeout("tcp", arg, 5*time.Second)
		if err != nil {
			fmt.Println("error", err)
			return
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(20 * time.Second))
		fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", os.Args[3], os.Args[3])
		br := bufio.NewReader(c)
		resp, err := http.ReadResponse(br, nil)
		if err != nil || resp.StatusCode != 200 {
			fmt.Println("error CONNECT", err, resp)
			return
		}
		tc := tls.Client(c, &tls.Config{ServerName: os.Args[4], InsecureSkipVerify: true})
		if err := tc.Handshake(); err != nil {
			fmt.Println("error", err)
			return
		}
		fmt.Println("handshake done")
	case "tls":
		c, err := tls.DialWithDialer(&net.Dialer{Timeout: 10 * time.Second}, "tcp", arg,
			&tls.Config{ServerName: os.Args[3], InsecureSkipVerify: true})
		if err != nil {
			fmt.Println("error", err)
			return
		}
		c.Close()
		fmt.Println("handshake done")
	case "icmp":
		fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_RAW, syscall.IPPROTO_ICMP)
		if err != nil {
			fmt.Println("error", err)
			return
		}
		defer syscall.Close(fd)
		ip := net.ParseIP(arg).To4()
		err = syscall.Sendto(fd, []byte{8, 0, 0xf7, 0xff, 0, 0, 0, 0}, 0, &syscall.SockaddrInet4{Addr: [4]byte(ip)})
		if err != nil {
			fmt.Println("error", err)
			return
		}
		// A card with a route takes the packet; only a reply proves a path.
		tv := syscall.Timeval{Sec: 3}
		syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv)
		buf := make([]byte, 1500)
		for {
			n, from, err := syscall.Recvfrom(fd, buf, 0)
			if err != nil {
				fmt.Println("error no reply:", err)
				return
			}
			// Our own echo request may come back on loopback; a reply has type 0.
			if sa, ok := from.(*syscall.SockaddrInet4); ok && sa.Addr == [4]byte(ip) && n > 20 && buf[(buf[0]&0xf)*4] == 0 {
				fmt.Println("answered")
				return
			}
		}
	case "flood":
		n, _ := strconv.Atoi(os.Args[3])
		var conns []net.Conn
		for i := 0; i < 2*n; i++ {
			c, err := net.DialTimeout("tcp", arg, 5*time.Second)
			if err != nil {
				continue
			}
			if i%2 == 0 {
				fmt.Fprintf(c, "CONNECT allowed.test:443 HTTP/1.1\r\nHost: allowed.test:443\r\n\r\n")
			} else {
				c.Write([]byte("\x16\x03\x01\xff\xff garbage that is neither HTTP nor a request head"))
			}
			conns = append(conns, c)
		}
		time.Sleep(3 * time.Second)
		for _, c := range conns {
			c.Close()
		}
		fmt.Println("held", len(conns))
		os.Exit(2)
	}
}
