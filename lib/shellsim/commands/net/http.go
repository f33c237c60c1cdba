package net

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// launchCost is the fixed fuel charged per run of a network command.
const launchCost = 100

// network returns the System's route table, or nil when it has none (every
// request is then refused).
func network(inv *command.Invocation) command.Network {
	if nw, ok := inv.Sys.(command.Network); ok {
		return nw
	}
	return nil
}

// fetch asks the network for req; false means connection refused.
func fetch(inv *command.Invocation, req command.HTTPRequest) (command.HTTPResponse, bool) {
	nw := network(inv)
	if nw == nil {
		return command.HTTPResponse{}, false
	}
	return nw.Fetch(req)
}

// hostPort splits a URL's authority the way curl and wget print it.
func hostPort(u *url.URL) (host, port string) {
	host, port = u.Hostname(), u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return host, port
}

// reason is the HTTP reason phrase for a status.
func reason(status int) string {
	if t := http.StatusText(status); t != "" {
		return t
	}
	return "Unknown"
}

// header looks a header up case-insensitively.
func header(h map[string]string, name string) (string, bool) {
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return "", false
}

// writeHeaders prints a status line and headers as curl -i shows them.
func writeHeaders(w io.Writer, resp command.HTTPResponse) error {
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\n", resp.Status, reason(resp.Status))
	for _, k := range command.SortedHeaderKeys(resp.Headers) {
		fmt.Fprintf(&b, "%s: %s\r\n", k, resp.Headers[k])
	}
	if _, ok := header(resp.Headers, "Content-Length"); !ok {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(resp.Body))
	}
	b.WriteString("\r\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// parseHeader splits "Name: value".
func parseHeader(s string) (string, string, bool) {
	k, v, ok := strings.Cut(s, ":")
	if !ok || strings.TrimSpace(k) == "" {
		return "", "", false
	}
	return strings.TrimSpace(k), strings.TrimSpace(v), true
}

// isRedirect reports whether status is a redirect that carries Location.
func isRedirect(status int) bool {
	return status == 301 || status == 302 || status == 303 || status == 307 || status == 308
}

// resolve makes a Location relative to base absolute.
func resolve(base, loc string) string {
	b, err := url.Parse(base)
	if err != nil {
		return loc
	}
	l, err := url.Parse(loc)
	if err != nil {
		return loc
	}
	return b.ResolveReference(l).String()
}
