package net

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// curl - transfer a URL (from the virtual route table)
//
//	curl [-sSfiIL] [-o FILE | -O] [-w FORMAT] [-X METHOD] [-d DATA]... [-H 'K: V']... URL...
//
// There are no sockets: each request is answered by command.Network. A URL
// with no route fails like a refused connection (exit 7). The progress
// meter is never drawn (as with -s), which is what scripts care about.

type curlOpts struct {
	silent, showErr, fail, include, head, follow bool
	method, writeOut                             string
	data                                         []string
	hasData                                      bool
	headers                                      map[string]string
	urls                                         []string
	outputs                                      []string // "" marks -O
}

// curl options that need an argument, by short letter and long name.
var curlShortArg = "oXdHwAebumTKcEY"
var curlLong = map[string]string{
	"silent": "s", "show-error": "S", "fail": "f", "include": "i", "head": "I", "location": "L",
	"output": "o", "remote-name": "O", "request": "X", "data": "d", "data-raw": "data-raw",
	"data-binary": "data-binary", "data-ascii": "d", "data-urlencode": "data-urlencode", "header": "H",
	"write-out": "w", "url": "url", "user-agent": "A", "referer": "e", "cookie": "b", "user": "u",
	"insecure": "k", "compressed": "compressed", "max-time": "m", "connect-timeout": "connect-timeout",
	"retry": "retry", "http1.1": "http1.1", "no-buffer": "N", "fail-with-body": "fail-with-body",
	"get": "G", "verbose": "v", "progress-bar": "#", "no-progress-meter": "no-progress-meter",
}
var curlLongArg = map[string]bool{"output": true, "request": true, "data": true, "data-raw": true,
	"data-binary": true, "data-ascii": true, "data-urlencode": true, "header": true, "write-out": true,
	"url": true, "user-agent": true, "referer": true, "cookie": true, "user": true, "max-time": true,
	"connect-timeout": true, "retry": true}

// Curl runs curl.
func Curl(inv *command.Invocation) int {
	if inv.Sys.Charge(launchCost) != nil {
		return 1
	}
	o := curlOpts{headers: map[string]string{}}
	usage := func(msg string) int {
		if msg != "" {
			fmt.Fprintf(inv.Stderr, "curl: %s\n", msg)
		}
		fmt.Fprintln(inv.Stderr, "curl: try 'curl --help' or 'curl --manual' for more information")
		return 2
	}
	args := inv.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			o.urls = append(o.urls, args[i+1:]...)
			break
		}
		var key, val string
		var hasVal bool
		switch {
		case strings.HasPrefix(a, "--"):
			name, v, eq := strings.Cut(a[2:], "=")
			k, ok := curlLong[name]
			if !ok {
				inv.Sys.Partial("curl --" + name)
				return usage("option --" + name + ": is unknown")
			}
			key = k
			if curlLongArg[name] {
				if eq {
					val = v
				} else if i+1 < len(args) {
					i++
					val = args[i]
				} else {
					return usage("option --" + name + ": requires parameter")
				}
				hasVal = true
			}
			if st := o.apply(inv, key, val, hasVal); st >= 0 {
				return st
			}
			continue
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				c := a[j]
				if strings.IndexByte(curlShortArg, c) >= 0 {
					if j+1 < len(a) {
						val = a[j+1:]
					} else if i+1 < len(args) {
						i++
						val = args[i]
					} else {
						return usage(fmt.Sprintf("option -%c: requires parameter", c))
					}
					if st := o.apply(inv, string(c), val, true); st >= 0 {
						return st
					}
					break
				}
				if st := o.apply(inv, string(c), "", false); st >= 0 {
					return st
				}
			}
			continue
		}
		o.urls = append(o.urls, a)
	}
	if len(o.urls) == 0 {
		return usage("no URL specified")
	}
	status := 0
	for i, u := range o.urls {
		out, hasOut := "-", false
		if i < len(o.outputs) {
			out, hasOut = o.outputs[i], true
		}
		st := o.transfer(inv, u, out, hasOut)
		if st < 0 {
			return 1
		}
		if st != 0 {
			status = st
		}
	}
	return status
}

// apply records one option; it returns a status >= 0 to stop with.
func (o *curlOpts) apply(inv *command.Invocation, key, val string, hasVal bool) int {
	switch key {
	case "s":
		o.silent = true
	case "S":
		o.showErr = true
	case "f":
		o.fail = true
	case "i":
		o.include = true
	case "I":
		o.head = true
	case "L":
		o.follow = true
	case "o":
		o.outputs = append(o.outputs, val)
	case "O":
		o.outputs = append(o.outputs, "")
	case "X":
		o.method = val
	case "w":
		o.writeOut = val
	case "url":
		o.urls = append(o.urls, val)
	case "H":
		if k, v, ok := parseHeader(val); ok {
			o.headers[k] = v
		}
	case "A":
		o.headers["User-Agent"] = val
	case "e":
		o.headers["Referer"] = val
	case "b":
		o.headers["Cookie"] = val
	case "u":
		o.headers["Authorization"] = "Basic " + base64.StdEncoding.EncodeToString([]byte(val))
	case "d", "data-raw", "data-binary", "data-urlencode":
		d := val
		if key == "data-urlencode" {
			if k, v, ok := strings.Cut(val, "="); ok {
				d = k + "=" + url.QueryEscape(v)
			} else {
				d = url.QueryEscape(val)
			}
		} else if key != "data-raw" && strings.HasPrefix(val, "@") {
			b, err := readArg(inv, val[1:])
			if err != nil {
				if !o.silent || o.showErr {
					fmt.Fprintf(inv.Stderr, "Warning: Couldn't read data from file \"%s\", this makes an empty \nWarning: POST.\n", val[1:])
				}
				b = nil
			}
			if key == "d" {
				b = bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r"), nil), []byte("\n"), nil)
			}
			d = string(b)
		}
		o.data = append(o.data, d)
		o.hasData = true
	case "k", "compressed", "m", "connect-timeout", "retry", "http1.1", "N", "no-progress-meter", "#":
		// No TLS, compression, timing or progress meter is modeled: these
		// change nothing observable here.
	case "fail-with-body":
		o.fail = true
		inv.Sys.Partial("curl --fail-with-body")
	default:
		inv.Sys.Partial("curl -" + key)
		if len(key) == 1 {
			fmt.Fprintf(inv.Stderr, "curl: option -%s: is unknown\n", key)
		} else {
			fmt.Fprintf(inv.Stderr, "curl: option --%s: is not supported in this simulation\n", key)
		}
		fmt.Fprintln(inv.Stderr, "curl: try 'curl --help' or 'curl --manual' for more information")
		return 2
	}
	return -1
}

// readArg reads a file operand; "-" is standard input.
func readArg(inv *command.Invocation, name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(inv.Stdin)
	}
	return inv.FS.ReadFile(inv.Abs(name))
}

// transfer performs one URL; it returns the exit status, or -1 when the
// process must stop.
func (o *curlOpts) transfer(inv *command.Invocation, rawURL, out string, hasOut bool) int {
	method := "GET"
	var body []byte
	if o.hasData {
		method = "POST"
		body = []byte(strings.Join(o.data, "&"))
		if _, ok := o.headers["Content-Type"]; !ok {
			o.headers["Content-Type"] = "application/x-www-form-urlencoded"
		}
	}
	if o.head {
		method = "HEAD"
	}
	if o.method != "" {
		method = o.method
	}
	wo := writeOut{url: rawURL, method: method, code: "000"}
	fail := func(code int, msg string) int {
		if !o.silent || o.showErr {
			fmt.Fprintf(inv.Stderr, "curl: (%d) %s\n", code, msg)
		}
		wo.exit, wo.errmsg = code, msg
		if o.writeOut != "" {
			if _, err := io.WriteString(inv.Stdout, wo.expand(o.writeOut)); err != nil {
				return -1
			}
		}
		return code
	}
	if !strings.Contains(rawURL, "://") {
		rawURL = "http://" + rawURL
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return fail(3, "URL rejected: Malformed input to a URL function")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fail(1, fmt.Sprintf("Protocol \"%s\" not supported or disabled in libcurl", u.Scheme))
	}
	if u.Path == "" {
		u.Path = "/"
		rawURL = u.String()
	}
	wo.url = rawURL
	var resp command.HTTPResponse
	for redirects := 0; ; redirects++ {
		if inv.Sys.Charge(int64(50+len(body))) != nil {
			return -1
		}
		r, ok := fetch(inv, command.HTTPRequest{Method: method, URL: rawURL, Headers: o.headers, Body: body})
		if !ok {
			host, port := hostPort(u)
			return fail(7, fmt.Sprintf("Failed to connect to %s port %s after 0 ms: Couldn't connect to server", host, port))
		}
		resp = r
		wo.code = fmt.Sprintf("%03d", resp.Status)
		loc, hasLoc := header(resp.Headers, "Location")
		if hasLoc {
			wo.redirect = resolve(rawURL, loc)
		}
		if !o.follow || !isRedirect(resp.Status) || !hasLoc {
			break
		}
		if redirects >= 50 {
			return fail(47, "Maximum (50) redirects followed")
		}
		if o.include {
			// curl -iL shows every hop's headers.
			if writeHeaders(inv.Stdout, resp) != nil {
				return -1
			}
		}
		rawURL = resolve(rawURL, loc)
		wo.url, wo.redirect, wo.redirects = rawURL, "", redirects+1
		if u, err = url.Parse(rawURL); err != nil {
			return fail(3, "URL rejected: Malformed input to a URL function")
		}
		if resp.Status != 307 && resp.Status != 308 && method == "POST" && o.method == "" {
			method, body = "GET", nil
		}
	}
	if ct, ok := header(resp.Headers, "Content-Type"); ok {
		wo.ctype = ct
	}
	if o.fail && resp.Status >= 400 {
		return fail(22, fmt.Sprintf("The requested URL returned error: %d", resp.Status))
	}
	var buf bytes.Buffer
	if o.include || o.head {
		writeHeaders(&buf, resp)
	}
	if !o.head {
		buf.Write(resp.Body)
		wo.size = len(resp.Body)
	}
	if inv.Sys.Charge(int64(buf.Len())) != nil {
		return -1
	}
	if !hasOut || out == "-" {
		if _, err := inv.Stdout.Write(buf.Bytes()); err != nil {
			return -1
		}
	} else {
		name := out
		if name == "" {
			name = path.Base(u.Path)
			if u.Path == "/" || strings.HasSuffix(u.Path, "/") {
				if !o.silent || o.showErr {
					fmt.Fprintln(inv.Stderr, "curl: Remote file name has no length!")
				}
				return fail(23, "Failed writing received data to disk/application")
			}
		}
		if err := inv.FS.WriteFile(inv.Abs(name), buf.Bytes(), 0o644); err != nil {
			if !o.silent || o.showErr {
				fmt.Fprintf(inv.Stderr, "Warning: Failed to open the file %s: %s\n", name, command.Message(err))
			}
			return fail(23, "Failure writing output to destination")
		}
	}
	if o.writeOut != "" {
		if _, err := io.WriteString(inv.Stdout, wo.expand(o.writeOut)); err != nil {
			return -1
		}
	}
	return 0
}

// writeOut holds the variables of curl -w.
type writeOut struct {
	url, method, code, ctype, redirect, errmsg string
	size, redirects, exit                      int
}

// expand formats a -w template: %{var}, %% and backslash escapes.
func (w writeOut) expand(f string) string {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		c := f[i]
		switch {
		case c == '%' && i+1 < len(f) && f[i+1] == '%':
			b.WriteByte('%')
			i++
		case c == '%' && i+1 < len(f) && f[i+1] == '{':
			end := strings.IndexByte(f[i:], '}')
			if end < 0 {
				b.WriteString(f[i:])
				return b.String()
			}
			name := f[i+2 : i+end]
			i += end
			switch name {
			case "http_code", "response_code":
				b.WriteString(w.code)
			case "url_effective", "url":
				b.WriteString(w.url)
			case "method":
				b.WriteString(w.method)
			case "content_type":
				b.WriteString(w.ctype)
			case "size_download":
				b.WriteString(strconv.Itoa(w.size))
			case "redirect_url":
				b.WriteString(w.redirect)
			case "num_redirects":
				b.WriteString(strconv.Itoa(w.redirects))
			case "exitcode":
				b.WriteString(strconv.Itoa(w.exit))
			case "errormsg":
				b.WriteString(w.errmsg)
			case "time_total", "time_connect", "time_starttransfer", "time_namelookup":
				b.WriteString("0.000000")
			default:
				fmt.Fprintf(&b, "%%{%s}", name)
			}
		case c == '\\' && i+1 < len(f):
			i++
			switch f[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '\\':
				b.WriteByte('\\')
			default:
				b.WriteByte('\\')
				b.WriteByte(f[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
