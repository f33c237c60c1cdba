package misc

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// dd - convert and copy a file
//
//	dd [if=FILE] [of=FILE] [bs=N] [ibs=N] [obs=N] [count=N] [skip=N] [seek=N]
//	   [conv=notrunc,ucase,lcase,sync,noerror,fsync,fdatasync,excl,nocreat] [status=none|noxfer|progress]
//
// Sizes take GNU's suffixes (c w b kB K MB M GB G, and NxM products). The
// summary goes to standard error; the elapsed time is virtual and zero, so
// the transfer line reads "0 s, Infinity B/s".

type ddOpts struct {
	in, out                     string
	ibs, obs, count, skip, seek int64
	hasCount                    bool
	notrunc, ucase, lcase, sync bool
	excl, nocreat               bool
	status                      string
}

// DD runs dd.
func DD(inv *command.Invocation) int {
	if inv.Sys.Charge(50) != nil {
		return 1
	}
	o := ddOpts{ibs: 512, obs: 512}
	for _, a := range inv.Args[1:] {
		if a == "--help" {
			fmt.Fprintf(inv.Stdout, "Usage: dd [OPERAND]...\n")
			return 0
		}
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			fmt.Fprintf(inv.Stderr, "dd: unrecognized operand '%s'\nTry 'dd --help' for more information.\n", a)
			return 1
		}
		num := func() (int64, bool) {
			n, ok := ddSize(v)
			if !ok {
				fmt.Fprintf(inv.Stderr, "dd: invalid number: '%s'\n", v)
			}
			return n, ok
		}
		var n int64
		switch k {
		case "if":
			o.in = v
		case "of":
			o.out = v
		case "bs", "ibs", "obs", "count", "skip", "seek", "iseek", "oseek":
			if n, ok = num(); !ok {
				return 1
			}
			if (k == "bs" || k == "ibs" || k == "obs") && n == 0 {
				fmt.Fprintf(inv.Stderr, "dd: invalid number: '%s'\n", v)
				return 1
			}
			switch k {
			case "bs":
				o.ibs, o.obs = n, n
			case "ibs":
				o.ibs = n
			case "obs":
				o.obs = n
			case "count":
				o.count, o.hasCount = n, true
			case "skip", "iseek":
				o.skip = n
			case "seek", "oseek":
				o.seek = n
			}
		case "conv":
			for _, c := range strings.Split(v, ",") {
				switch c {
				case "notrunc":
					o.notrunc = true
				case "ucase":
					o.ucase = true
				case "lcase":
					o.lcase = true
				case "sync":
					o.sync = true
				case "excl":
					o.excl = true
				case "nocreat":
					o.nocreat = true
				case "noerror", "fsync", "fdatasync", "sparse":
				default:
					inv.Sys.Partial("dd conv=" + c)
					fmt.Fprintf(inv.Stderr, "dd: invalid conversion: '%s'\nTry 'dd --help' for more information.\n", c)
					return 1
				}
			}
			if o.ucase && o.lcase {
				fmt.Fprintf(inv.Stderr, "dd: cannot combine lcase and ucase\n")
				return 1
			}
		case "status":
			if v != "none" && v != "noxfer" && v != "progress" {
				fmt.Fprintf(inv.Stderr, "dd: invalid status level: '%s'\nTry 'dd --help' for more information.\n", v)
				return 1
			}
			o.status = v
		case "iflag", "oflag", "cbs":
			inv.Sys.Partial("dd " + k)
			fmt.Fprintf(inv.Stderr, "dd: %s= is not supported here\n", k)
			return 1
		default:
			fmt.Fprintf(inv.Stderr, "dd: unrecognized operand '%s'\nTry 'dd --help' for more information.\n", a)
			return 1
		}
	}
	return o.run(inv)
}

// ddSize parses a dd number: digits with an optional multiplier suffix,
// possibly several joined by 'x'.
func ddSize(s string) (int64, bool) {
	total := int64(1)
	for _, part := range strings.Split(s, "x") {
		i := 0
		for i < len(part) && part[i] >= '0' && part[i] <= '9' {
			i++
		}
		if i == 0 {
			return 0, false
		}
		n, err := strconv.ParseInt(part[:i], 10, 64)
		if err != nil {
			return 0, false
		}
		mult := map[string]int64{"": 1, "c": 1, "w": 2, "b": 512, "kB": 1000, "K": 1024, "KiB": 1024, "k": 1024,
			"MB": 1000 * 1000, "M": 1 << 20, "MiB": 1 << 20, "GB": 1000 * 1000 * 1000, "G": 1 << 30, "GiB": 1 << 30}[part[i:]]
		if mult == 0 {
			return 0, false
		}
		total *= n * mult
	}
	return total, true
}

func (o *ddOpts) run(inv *command.Invocation) int {
	var in io.Reader = inv.Stdin
	name := "standard input"
	if o.in != "" {
		f, err := inv.FS.Open(inv.Abs(o.in))
		if err != nil {
			fmt.Fprintf(inv.Stderr, "dd: failed to open '%s': %s\n", o.in, command.Message(err))
			return 1
		}
		defer f.Close()
		in, name = f, o.in
	}
	var out io.Writer = inv.Stdout
	if o.out != "" {
		flag := os.O_WRONLY | os.O_CREATE
		if o.excl {
			flag |= os.O_EXCL
		}
		if o.nocreat {
			flag &^= os.O_CREATE
		}
		f, err := inv.FS.OpenFile(inv.Abs(o.out), flag, 0o644)
		if err != nil {
			fmt.Fprintf(inv.Stderr, "dd: failed to open '%s': %s\n", o.out, command.Message(err))
			return 1
		}
		defer f.Close()
		if o.seek > 0 {
			if _, err := f.Seek(o.seek*o.obs, io.SeekStart); err != nil {
				fmt.Fprintf(inv.Stderr, "dd: '%s': cannot seek: %s\n", o.out, command.Message(err))
				return 1
			}
		}
		if !o.notrunc {
			if err := f.Truncate(o.seek * o.obs); err != nil {
				fmt.Fprintf(inv.Stderr, "dd: failed to truncate to %d bytes in output file '%s': %s\n", o.seek*o.obs, o.out, command.Message(err))
				return 1
			}
		}
		out = f
	}
	rel, err := inv.Sys.Reserve(o.ibs + o.obs)
	defer rel()
	if err != nil {
		return 1
	}
	// Skip input blocks by reading them (works for pipes and files alike).
	buf := make([]byte, o.ibs)
	for i := int64(0); i < o.skip; i++ {
		n, err := io.ReadFull(in, buf)
		if inv.Sys.Charge(int64(n)) != nil {
			return 1
		}
		if err != nil {
			if n == 0 || err == io.ErrUnexpectedEOF {
				fmt.Fprintf(inv.Stderr, "dd: '%s': cannot skip to specified offset\n", name)
			}
			break
		}
	}
	var fullIn, partIn, fullOut, partOut, bytesOut int64
	var pending bytes.Buffer
	status := 0
	flushOut := func(final bool) bool {
		for pending.Len() >= int(o.obs) || (final && pending.Len() > 0) {
			chunk := pending.Next(int(min(int64(pending.Len()), o.obs)))
			if _, err := out.Write(chunk); err != nil {
				if o.out != "" {
					fmt.Fprintf(inv.Stderr, "dd: error writing '%s': %s\n", o.out, command.Message(err))
					status = 1
				}
				return false
			}
			bytesOut += int64(len(chunk))
			if int64(len(chunk)) == o.obs {
				fullOut++
			} else {
				partOut++
			}
		}
		return true
	}
	for !o.hasCount || fullIn+partIn < o.count {
		n, err := io.ReadFull(in, buf)
		if n > 0 {
			if inv.Sys.Charge(int64(n)) != nil {
				return 1
			}
			if int64(n) == o.ibs {
				fullIn++
			} else {
				partIn++
			}
			block := buf[:n]
			if o.sync && int64(n) < o.ibs {
				block = append(append([]byte(nil), block...), make([]byte, o.ibs-int64(n))...)
			}
			switch {
			case o.ucase:
				block = bytes.ToUpper(block)
			case o.lcase:
				block = bytes.ToLower(block)
			}
			pending.Write(block)
			if o.ibs == o.obs {
				// With one block size, every input block is written as is.
				if !flushOut(true) {
					break
				}
			} else if !flushOut(false) {
				break
			}
		}
		if err != nil {
			if err != io.EOF && err != io.ErrUnexpectedEOF {
				fmt.Fprintf(inv.Stderr, "dd: error reading '%s': %s\n", name, command.Message(err))
				status = 1
			}
			break
		}
	}
	if status == 0 {
		flushOut(true)
	}
	if o.status != "none" {
		var b strings.Builder
		fmt.Fprintf(&b, "%d+%d records in\n%d+%d records out\n", fullIn, partIn, fullOut, partOut)
		if o.status != "noxfer" {
			fmt.Fprintf(&b, "%s copied, 0 s, Infinity B/s\n", ddBytes(bytesOut))
		}
		io.WriteString(inv.Stderr, b.String())
	}
	return status
}

// ddBytes is dd's "N bytes (1.0 kB, 1000 B) copied" amount.
func ddBytes(n int64) string {
	if n == 1 {
		return "1 byte"
	}
	if n < 1000 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%d bytes (%s, %s)", n, human(n, 1000, []string{"kB", "MB", "GB", "TB"}), human(n, 1024, []string{"KiB", "MiB", "GiB", "TiB"}))
}

func human(n int64, base float64, units []string) string {
	v := float64(n)
	if v < base {
		return fmt.Sprintf("%d B", n)
	}
	u := -1
	for v >= base && u < len(units)-1 {
		v /= base
		u++
	}
	if v < 10 {
		return fmt.Sprintf("%.1f %s", v, units[u])
	}
	return fmt.Sprintf("%.0f %s", v, units[u])
}
