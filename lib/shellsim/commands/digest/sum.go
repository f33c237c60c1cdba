package digest

import (
	"bufio"
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
	"hash"
	"io"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// md5sum, sha1sum, sha256sum, sha512sum - compute and check message digests
//
//	sha256sum [-bctwz] [--tag] [--quiet] [--status] [--strict] [FILE]...
//
// Output is "<hex>  <name>" ("-" for standard input), or "<hex> *<name>"
// with -b; -c reads such lines (or --tag lines) and prints "name: OK" or
// "name: FAILED", exiting 1 on any mismatch or unreadable file.

type sumAlgo struct {
	cmd, tag string
	new      func() hash.Hash
}

var sumAlgos = []sumAlgo{
	{"md5sum", "MD5", md5.New},
	{"sha1sum", "SHA1", sha1.New},
	{"sha256sum", "SHA256", sha256.New},
	{"sha512sum", "SHA512", sha512.New},
	{"sha224sum", "SHA224", sha256.New224},
	{"sha384sum", "SHA384", sha512.New384},
}

var sumSpec = getopt.Spec{Short: "bctwz", Long: []getopt.Long{
	{"binary", "b"}, {"check", "c"}, {"ignore-missing", "ignore-missing"}, {"quiet", "quiet"},
	{"status", "status"}, {"strict", "strict"}, {"tag", "tag"}, {"text", "t"}, {"warn", "w"},
	{"zero", "z"},
}}

type sumFlags struct {
	binary, check, tag, quiet, status, strict, warn, zero, ignoreMissing bool
}

func runSum(inv *command.Invocation, a sumAlgo) int {
	if inv.Sys.Charge(launchCost) != nil {
		return 1
	}
	opts, files, st, ok := getopt.Parse(inv, &sumSpec)
	if !ok {
		return st
	}
	var f sumFlags
	for _, o := range opts {
		switch o.Name {
		case "b":
			f.binary = true
		case "t":
			f.binary = false
		case "c":
			f.check = true
		case "tag":
			f.tag = true
		case "quiet":
			f.quiet = true
		case "status":
			f.status = true
		case "strict":
			f.strict = true
		case "w":
			f.warn = true
		case "z":
			f.zero = true
		case "ignore-missing":
			f.ignoreMissing = true
		}
	}
	name := inv.Args[0]
	if f.check && f.tag {
		fmt.Fprintf(inv.Stderr, "%s: the --tag option is meaningless when verifying checksums\nTry '%s --help' for more information.\n", name, name)
		return 1
	}
	if !f.check && (f.quiet || f.status || f.strict || f.warn || f.ignoreMissing) {
		opt := "--quiet"
		switch {
		case f.ignoreMissing:
			opt = "--ignore-missing"
		case f.status:
			opt = "--status"
		case f.strict:
			opt = "--strict"
		case f.warn:
			opt = "--warn"
		}
		fmt.Fprintf(inv.Stderr, "%s: the %s option is meaningful only when verifying checksums\nTry '%s --help' for more information.\n", name, opt, name)
		return 1
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	for _, file := range files {
		if f.check {
			st := checkSums(inv, a, f, file)
			if st < 0 {
				return 1
			}
			status = max(status, st)
			continue
		}
		sum, err := hashFile(inv, a, file)
		if err == errStop {
			return 1
		}
		if err != nil {
			fmt.Fprintf(inv.Stderr, "%s: %s: %s\n", name, file, command.Message(err))
			status = 1
			continue
		}
		var line string
		shown, esc := escapeName(file)
		if f.zero {
			shown, esc = file, false
		}
		prefix := ""
		if esc {
			prefix = "\\"
		}
		switch {
		case f.tag:
			line = fmt.Sprintf("%s%s (%s) = %s", prefix, a.tag, shown, sum)
		case f.binary:
			line = fmt.Sprintf("%s%s *%s", prefix, sum, shown)
		default:
			line = fmt.Sprintf("%s%s  %s", prefix, sum, shown)
		}
		end := "\n"
		if f.zero {
			end = "\x00"
		}
		if _, err := io.WriteString(inv.Stdout, line+end); err != nil {
			return 1
		}
	}
	return status
}

// escapeName escapes backslash and newline in a file name as GNU does (the
// line then starts with a backslash).
func escapeName(s string) (string, bool) {
	if !strings.ContainsAny(s, "\\\n\r") {
		return s, false
	}
	r := strings.NewReplacer("\\", "\\\\", "\n", "\\n", "\r", "\\r")
	return r.Replace(s), true
}

func unescapeName(s string) string {
	r := strings.NewReplacer("\\\\", "\\", "\\n", "\n", "\\r", "\r")
	return r.Replace(s)
}

// hashFile returns the hex digest of one operand.
func hashFile(inv *command.Invocation, a sumAlgo, file string) (string, error) {
	r, err := open(inv, file)
	if err != nil {
		return "", err
	}
	defer r.Close()
	h := a.new()
	if err := stream(inv, r, h); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// checkSums runs -c over one checksum list; it returns the status, or -1
// to stop.
func checkSums(inv *command.Invocation, a sumAlgo, f sumFlags, list string) int {
	name := inv.Args[0]
	r, err := open(inv, list)
	if err != nil {
		fmt.Fprintf(inv.Stderr, "%s: %s: %s\n", name, list, command.Message(err))
		return 1
	}
	data, release, err := readAll(inv, r)
	r.Close()
	defer release()
	if err == errStop {
		return -1
	}
	if err != nil {
		fmt.Fprintf(inv.Stderr, "%s: %s: %s\n", name, list, command.Message(err))
		return 1
	}
	hexLen := a.new().Size() * 2
	var bad, failed, unreadable, okCount, lineNo int
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), len(data)+1)
	for sc.Scan() {
		lineNo++
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") {
			continue
		}
		want, file, ok := parseSumLine(line, a.tag, hexLen)
		if !ok {
			bad++
			if f.warn {
				fmt.Fprintf(inv.Stderr, "%s: %s: %d: improperly formatted %s checksum line\n", name, list, lineNo, a.tag)
			}
			continue
		}
		got, err := hashFile(inv, a, file)
		if err == errStop {
			return -1
		}
		var res string
		switch {
		case err != nil:
			if f.ignoreMissing && strings.Contains(command.Message(err), "No such file") {
				continue
			}
			unreadable++
			fmt.Fprintf(inv.Stderr, "%s: %s: %s\n", name, file, command.Message(err))
			res = "FAILED open or read"
		case strings.EqualFold(got, want):
			okCount++
			if f.quiet {
				continue
			}
			res = "OK"
		default:
			failed++
			res = "FAILED"
		}
		if !f.status {
			shown, esc := escapeName(file)
			prefix := ""
			if esc {
				prefix = "\\"
			}
			if _, err := fmt.Fprintf(inv.Stdout, "%s%s: %s\n", prefix, shown, res); err != nil {
				return -1
			}
		}
	}
	if okCount == 0 && failed == 0 && unreadable == 0 {
		if bad > 0 || lineNo == 0 || !f.ignoreMissing {
			fmt.Fprintf(inv.Stderr, "%s: %s: no properly formatted checksum lines found\n", name, list)
			return 1
		}
		if f.ignoreMissing {
			fmt.Fprintf(inv.Stderr, "%s: %s: no file was verified\n", name, list)
			return 1
		}
	}
	plural := func(n int, one, many string) string {
		if n == 1 {
			return one
		}
		return many
	}
	if !f.status {
		if bad > 0 {
			fmt.Fprintf(inv.Stderr, "%s: WARNING: %d %s improperly formatted\n", name, bad, plural(bad, "line is", "lines are"))
		}
		if unreadable > 0 {
			fmt.Fprintf(inv.Stderr, "%s: WARNING: %d listed %s could not be read\n", name, unreadable, plural(unreadable, "file", "files"))
		}
		if failed > 0 {
			fmt.Fprintf(inv.Stderr, "%s: WARNING: %d computed %s did NOT match\n", name, failed, plural(failed, "checksum", "checksums"))
		}
	}
	if failed > 0 || unreadable > 0 || (f.strict && bad > 0) {
		return 1
	}
	return 0
}

// parseSumLine accepts "<hex>  <name>", "<hex> *<name>" and the --tag form.
func parseSumLine(line, tag string, hexLen int) (sum, file string, ok bool) {
	esc := strings.HasPrefix(line, "\\")
	if esc {
		line = line[1:]
	}
	if strings.HasPrefix(line, tag+" (") {
		i := strings.LastIndex(line, ") = ")
		if i < 0 {
			return "", "", false
		}
		sum, file = line[i+4:], line[len(tag)+2:i]
	} else {
		if len(line) < hexLen+2 || line[hexLen] != ' ' || (line[hexLen+1] != ' ' && line[hexLen+1] != '*') {
			return "", "", false
		}
		sum, file = line[:hexLen], line[hexLen+2:]
	}
	if len(sum) != hexLen || file == "" {
		return "", "", false
	}
	if _, err := hex.DecodeString(sum); err != nil {
		return "", "", false
	}
	if esc {
		file = unescapeName(file)
	}
	return sum, file, true
}
