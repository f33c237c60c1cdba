package net

import (
	"fmt"
	"mime"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// wget - retrieve a URL (from the virtual route table)
//
//	wget [-q] [-O FILE|-] [-P DIR] [--header 'K: V']... [--method M] [--post-data DATA] URL
//
// The log on stderr follows wget's shape without the progress bar and
// transfer rate, which would only carry host timing noise.

type wgetOpts struct {
	quiet, noVerbose bool
	output, prefix   string
	hasOutput        bool
	method           string
	body             []byte
	headers          map[string]string
	urls             []string
}

// Wget runs wget.
func Wget(inv *command.Invocation) int {
	if inv.Sys.Charge(launchCost) != nil {
		return 1
	}
	o := wgetOpts{headers: map[string]string{}}
	usage := func(msg string) int {
		if msg != "" {
			fmt.Fprintf(inv.Stderr, "wget: %s\n", msg)
		}
		fmt.Fprint(inv.Stderr, "Usage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.\n")
		return 2
	}
	args := expandShort(inv.Args[1:])
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func(name string) (string, bool) {
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return "", false
		}
		if a == "--" {
			o.urls = append(o.urls, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			o.urls = append(o.urls, a)
			continue
		}
		name, val, eq := strings.Cut(a, "=")
		needs := map[string]string{"-O": "O", "--output-document": "O", "-P": "P", "--directory-prefix": "P",
			"--header": "header", "--method": "method", "--post-data": "data", "--body-data": "data",
			"-T": "ignore", "--timeout": "ignore", "-t": "ignore", "--tries": "ignore", "-U": "ua", "--user-agent": "ua"}
		key, takes := needs[name]
		if !takes && len(name) > 2 && name[1] != '-' {
			// Attached short argument: -Ofile, -P/tmp.
			if k, ok := needs[name[:2]]; ok && !eq {
				key, takes, val, eq = k, true, name[2:], true
			}
		}
		if takes {
			if !eq {
				v, ok := next(name)
				if !ok {
					return usage(fmt.Sprintf("option requires an argument -- '%s'", strings.TrimLeft(name, "-")))
				}
				val = v
			}
			switch key {
			case "O":
				o.output, o.hasOutput = val, true
			case "P":
				o.prefix = val
			case "header":
				if k, v, ok := parseHeader(val); ok {
					o.headers[k] = v
				}
			case "method":
				o.method = strings.ToUpper(val)
			case "data":
				o.body = []byte(val)
				if o.method == "" {
					o.method = "POST"
				}
				if _, ok := o.headers["Content-Type"]; !ok {
					o.headers["Content-Type"] = "application/x-www-form-urlencoded"
				}
			case "ua":
				o.headers["User-Agent"] = val
			}
			continue
		}
		switch a {
		case "-q", "--quiet":
			o.quiet = true
		case "-nv", "--no-verbose":
			o.noVerbose = true
		case "--no-check-certificate", "-nc", "--no-clobber":
		default:
			inv.Sys.Partial("wget " + name)
			if strings.HasPrefix(a, "--") {
				return usage(fmt.Sprintf("unrecognized option '%s'", a))
			}
			return usage(fmt.Sprintf("invalid option -- '%s'", a[1:2]))
		}
	}
	if len(o.urls) == 0 {
		return usage("missing URL")
	}
	// wget -O FILE creates (and empties) FILE before connecting, so a
	// failed download leaves an empty file behind.
	if o.hasOutput && o.output != "-" {
		if err := inv.FS.WriteFile(inv.Abs(o.output), nil, 0o644); err != nil {
			fmt.Fprintf(inv.Stderr, "wget: %s: %s\n", o.output, command.Message(err))
			return 3
		}
	}
	status := 0
	for _, u := range o.urls {
		st := o.get(inv, u)
		if st < 0 {
			return 1
		}
		if st != 0 {
			status = st
		}
	}
	return status
}

// get retrieves one URL; -1 means stop now.
func (o *wgetOpts) get(inv *command.Invocation, rawURL string) int {
	log := func(format string, a ...any) {
		if !o.quiet && !o.noVerbose {
			fmt.Fprintf(inv.Stderr, format, a...)
		}
	}
	stamp := func() string { return inv.Sys.Now().UTC().Format("2006-01-02 15:04:05") }
	if !strings.Contains(rawURL, "://") {
		rawURL = "http://" + rawURL
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		if !o.quiet {
			fmt.Fprintf(inv.Stderr, "%s: Unsupported scheme or invalid URL.\n", rawURL)
		}
		return 1
	}
	if u.Path == "" {
		u.Path = "/"
		rawURL = u.String()
	}
	method := o.method
	if method == "" {
		method = "GET"
	}
	var resp command.HTTPResponse
	for hops := 0; ; hops++ {
		if inv.Sys.Charge(int64(50+len(o.body))) != nil {
			return -1
		}
		log("--%s--  %s\n", stamp(), rawURL)
		host, port := hostPort(u)
		log("Connecting to %s:%s... ", host, port)
		r, ok := fetch(inv, command.HTTPRequest{Method: method, URL: rawURL, Headers: o.headers, Body: o.body})
		if !ok {
			log("failed: Connection refused.\n")
			if o.noVerbose && !o.quiet {
				fmt.Fprintf(inv.Stderr, "failed: Connection refused.\n")
			}
			return 4
		}
		resp = r
		log("connected.\nHTTP request sent, awaiting response... %d %s\n", resp.Status, reason(resp.Status))
		loc, hasLoc := header(resp.Headers, "Location")
		if !isRedirect(resp.Status) || !hasLoc {
			break
		}
		if hops >= 20 {
			log("20 redirections exceeded.\n")
			return 8
		}
		rawURL = resolve(rawURL, loc)
		log("Location: %s [following]\n", loc)
		if u, err = url.Parse(rawURL); err != nil {
			return 1
		}
	}
	if resp.Status >= 400 {
		log("%s ERROR %d: %s.\n\n", stamp(), resp.Status, reason(resp.Status))
		if o.noVerbose && !o.quiet {
			fmt.Fprintf(inv.Stderr, "%s ERROR %d: %s.\n", rawURL, resp.Status, reason(resp.Status))
		}
		return 8
	}
	n := len(resp.Body)
	length := strconv.Itoa(n)
	if n >= 1024 {
		length += " (" + humanSize(n) + ")"
	}
	if ct, ok := header(resp.Headers, "Content-Type"); ok {
		length += " [" + ct + "]"
	}
	log("Length: %s\n", length)
	if inv.Sys.Charge(int64(n)) != nil {
		return -1
	}
	if o.hasOutput && o.output == "-" {
		log("Saving to: ‘STDOUT’\n\n")
		if _, err := inv.Stdout.Write(resp.Body); err != nil {
			return -1
		}
		log("\n%s - written to stdout [%d/%d]\n\n", stamp(), n, n)
		return 0
	}
	name := o.output
	if !o.hasOutput {
		name = o.fileName(inv, u, resp)
	}
	log("Saving to: ‘%s’\n\n", name)
	p := inv.Abs(name)
	if err := inv.FS.WriteFile(p, resp.Body, 0o644); err != nil {
		if !o.quiet {
			fmt.Fprintf(inv.Stderr, "%s: %s\n", name, command.Message(err))
		}
		return 3
	}
	log("%s - ‘%s’ saved [%d/%d]\n\n", stamp(), name, n, n)
	if o.noVerbose && !o.quiet {
		fmt.Fprintf(inv.Stderr, "%s URL:%s [%d/%d] -> \"%s\" [1]\n", stamp(), rawURL, n, n, name)
	}
	return 0
}

// fileName picks the local name: Content-Disposition filename, else the
// last URL segment, else index.html; an existing name gets .1, .2, ...
func (o *wgetOpts) fileName(inv *command.Invocation, u *url.URL, resp command.HTTPResponse) string {
	name := ""
	if cd, ok := header(resp.Headers, "Content-Disposition"); ok {
		if _, params, err := mime.ParseMediaType(cd); err == nil {
			name = path.Base(params["filename"])
		}
	}
	if name == "" || name == "." || name == "/" {
		name = path.Base(u.Path)
		if strings.HasSuffix(u.Path, "/") || name == "/" || name == "." {
			name = "index.html"
		}
	}
	if o.prefix != "" {
		name = path.Join(o.prefix, name)
	}
	base := name
	for i := 1; ; i++ {
		if _, err := inv.FS.Lstat(inv.Abs(name)); err != nil {
			return name
		}
		name = base + "." + strconv.Itoa(i)
	}
}

// humanSize is wget's short size in parentheses ("1.0K", "2.5M").
func humanSize(n int) string {
	switch {
	case n < 1024*1024:
		return fmt.Sprintf("%.1fK", float64(n)/1024)
	default:
		return fmt.Sprintf("%.1fM", float64(n)/(1024*1024))
	}
}

// expandShort splits clustered short options ("-qO-" into "-q" "-O" "-")
// so the main loop sees one option per word.
func expandShort(args []string) []string {
	var out []string
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if len(a) <= 2 || a[0] != '-' || a[1] == '-' || a == "-nv" || a == "-nc" {
			out = append(out, a)
			continue
		}
		for j := 1; j < len(a); j++ {
			out = append(out, "-"+a[j:j+1])
			if strings.IndexByte("OPTtU", a[j]) >= 0 {
				if j+1 < len(a) {
					out = append(out, a[j+1:])
				}
				break
			}
		}
	}
	return out
}
