package files

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Stat displays file status.
//
//	stat [-L] [-c FORMAT | --printf FORMAT] [-t] FILE...
//
// Formats: %n %N %s %a %A %U %G %u %g %F %y %Y %x %X %z %Z %w %W %i %h %b
// %B %o %d %D %m %%. The simulator has no birth time (%w is "-").
func Stat(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short: "Lc:tfe",
		Long: []getopt.Long{
			{"cached=", "cached"}, {"dereference", "L"}, {"file-system", "f"}, {"format=", "c"},
			{"printf=", "printf"}, {"terse", "t"},
		},
		Partial: map[string]bool{"f": true, "t": true, "cached": true, "e": true},
		Help:    true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	deref := false
	format, printf := "", false
	hasFormat := false
	for _, o := range opts {
		switch o.Name {
		case "L":
			deref = true
		case "c":
			format, printf, hasFormat = o.Val, false, true
		case "printf":
			format, printf, hasFormat = o.Val, true, true
		}
	}
	if len(operands) == 0 {
		missing(inv, "missing operand")
		return 1
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	w := bufio.NewWriter(inv.Stdout)
	status := 0
	for _, op := range operands {
		p := inv.Abs(op)
		var fi command.FileInfo
		var err error
		if deref {
			fi, err = inv.FS.Stat(p)
		} else {
			fi, err = inv.FS.Lstat(p)
		}
		if err != nil {
			errorf(inv, "cannot statx %s: %s", q(op), command.Message(err))
			status = 1
			continue
		}
		if isSymlink(fi) && fi.Target == "" {
			fi.Target, _ = inv.FS.Readlink(p)
		}
		if !hasFormat {
			w.WriteString(statDefault(inv, op, fi))
			continue
		}
		out := statFormat(inv, format, op, fi)
		if printf {
			out = unescape(out)
		} else {
			out += "\n"
		}
		w.WriteString(out)
	}
	if err := w.Flush(); err != nil {
		return 1
	}
	return status
}

func statTime(t time.Time) string {
	return t.UTC().Format("2006-01-02 15:04:05.000000000 -0700")
}

func statDefault(inv *command.Invocation, name string, fi command.FileInfo) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  File: %s\n", statName(name, fi, false))
	fmt.Fprintf(&b, "  Size: %-10d\tBlocks: %-10d IO Block: 4096   %s\n", fi.Size, diskUsage(fi)/512, fileType(fi))
	nlink := fi.Nlink
	if nlink == 0 {
		nlink = 1
	}
	fmt.Fprintf(&b, "Device: 0,33\tInode: %-11d Links: %d\n", fi.Ino, nlink)
	fmt.Fprintf(&b, "Access: (%04o/%s)  Uid: (%5d/%8s)   Gid: (%5d/%8s)\n",
		octalMode(fi.Mode), modeString(fi.Mode), fi.UID, userName(inv, fi.UID), fi.GID, groupName(inv, fi.GID))
	t := statTime(fi.ModTime)
	fmt.Fprintf(&b, "Access: %s\nModify: %s\nChange: %s\n Birth: -\n", t, t, t)
	return b.String()
}

func statName(name string, fi command.FileInfo, quote bool) string {
	n := name
	if quote {
		n = q(name)
	}
	if isSymlink(fi) {
		t := fi.Target
		if quote {
			t = q(t)
		}
		return n + " -> " + t
	}
	return n
}

func statFormat(inv *command.Invocation, format, name string, fi command.FileInfo) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		// Optional flags and width, as printf.
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0123456789.'", format[j]) >= 0 {
			j++
		}
		if j >= len(format) {
			b.WriteString(format[i:])
			break
		}
		spec := format[i+1 : j]
		var s string
		num := true
		switch format[j] {
		case '%':
			s, num = "%", false
		case 'n':
			s, num = name, false
		case 'N':
			s, num = statName(name, fi, true), false
		case 's':
			s = strconv.FormatInt(fi.Size, 10)
		case 'a':
			s = strconv.FormatUint(uint64(octalMode(fi.Mode)), 8)
		case 'A':
			s, num = modeString(fi.Mode), false
		case 'U':
			s, num = userName(inv, fi.UID), false
		case 'G':
			s, num = groupName(inv, fi.GID), false
		case 'u':
			s = strconv.Itoa(fi.UID)
		case 'g':
			s = strconv.Itoa(fi.GID)
		case 'F':
			s, num = fileType(fi), false
		case 'x', 'y', 'z':
			s, num = statTime(fi.ModTime), false
		case 'X', 'Y', 'Z':
			s = strconv.FormatInt(fi.ModTime.Unix(), 10)
		case 'w':
			s, num = "-", false
		case 'W':
			s = "0"
		case 'i':
			s = strconv.FormatUint(fi.Ino, 10)
		case 'h':
			n := fi.Nlink
			if n == 0 {
				n = 1
			}
			s = strconv.Itoa(n)
		case 'b':
			s = strconv.FormatInt(diskUsage(fi)/512, 10)
		case 'B':
			s = "512"
		case 'o':
			s = "4096"
		case 'd':
			s = "33"
		case 'D':
			s = "21"
		case 'm':
			s, num = "/", false
		case 't', 'T':
			s = "0"
		default:
			inv.Sys.Partial("stat %" + string(format[j]))
			s, num = "?", false
		}
		if spec != "" {
			if num {
				if v, err := strconv.ParseInt(s, 10, 64); err == nil {
					s = fmt.Sprintf("%"+spec+"d", v)
				}
			} else {
				s = fmt.Sprintf("%"+spec+"s", s)
			}
		}
		b.WriteString(s)
		i = j
	}
	return b.String()
}

// unescape handles the backslash escapes stat --printf and find -printf know.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '\\':
			b.WriteByte('\\')
		case '"':
			b.WriteByte('"')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v, n := 0, 0
			for n < 3 && i < len(s) && s[i] >= '0' && s[i] <= '7' {
				v = v*8 + int(s[i]-'0')
				i++
				n++
			}
			i--
			b.WriteByte(byte(v))
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
