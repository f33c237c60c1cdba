package ar

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// Commands returns this package's commands, for a command.Table.
func Commands() []command.Entry {
	return []command.Entry{{Name: "ar", Trust: command.Partial, Run: Ar}}
}

const (
	magic     = "!<arch>\n"
	headerLen = 60
	// byteCost is the modeled CPU per archive byte read or written.
	byteCost = 64
)

type member struct {
	name string
	data []byte
}

var errFormat = errors.New("file format not recognized")

// parse reads an archive in the common (GNU/SysV) format: an optional "/"
// symbol index, an optional "//" long-name table, then the members.
func parse(b []byte) ([]member, error) {
	if !bytes.HasPrefix(b, []byte(magic)) {
		return nil, errFormat
	}
	b = b[len(magic):]
	var longNames []byte
	var ms []member
	for len(b) > 0 {
		if len(b) < headerLen || string(b[58:60]) != "`\n" {
			return nil, errFormat
		}
		h := b[:headerLen]
		size, err := strconv.ParseInt(strings.TrimSpace(string(h[48:58])), 10, 64)
		if err != nil || size < 0 || size > int64(len(b)-headerLen) {
			return nil, errFormat
		}
		data := b[headerLen : headerLen+int(size)]
		next := headerLen + int(size)
		if next%2 == 1 && next < len(b) {
			next++
		}
		b = b[next:]
		name := strings.TrimRight(string(h[:16]), " ")
		switch {
		case name == "/" || name == "/SYM64/":
			continue
		case name == "//":
			longNames = data
			continue
		case strings.HasPrefix(name, "/"):
			off, err := strconv.Atoi(name[1:])
			if err != nil || off < 0 || off >= len(longNames) {
				return nil, errFormat
			}
			end := bytes.Index(longNames[off:], []byte("/\n"))
			if end < 0 {
				return nil, errFormat
			}
			name = string(longNames[off : off+end])
		default:
			name = strings.TrimSuffix(name, "/")
		}
		ms = append(ms, member{name, data})
	}
	return ms, nil
}

// format writes members as GNU ar does in deterministic mode: zero dates
// and owners, mode 644, names of 16 bytes or more in a "//" table.
func format(ms []member) []byte {
	var out, table bytes.Buffer
	names := make([]string, len(ms))
	for i, m := range ms {
		if len(m.name) < 16 {
			names[i] = m.name + "/"
			continue
		}
		names[i] = "/" + strconv.Itoa(table.Len())
		table.WriteString(m.name + "/\n")
	}
	out.WriteString(magic)
	write := func(name string, data []byte) {
		fmt.Fprintf(&out, "%-16s%-12s%-6s%-6s%-8s%-10d`\n", name, "0", "0", "0", "644", len(data))
		out.Write(data)
		if len(data)%2 == 1 {
			out.WriteByte('\n')
		}
	}
	if table.Len() > 0 {
		fmt.Fprintf(&out, "%-16s%-12s%-6s%-6s%-8s%-10d`\n", "//", "", "", "", "", table.Len())
		out.Write(table.Bytes())
		if table.Len()%2 == 1 {
			out.WriteByte('\n')
		}
	}
	for i, m := range ms {
		write(names[i], m.data)
	}
	return out.Bytes()
}

// Ar maintains archives.
//
//	ar [-]{d|p|q|r|s|t|x}[cvDsSu] ARCHIVE [MEMBER...]
func Ar(inv *command.Invocation) int {
	args := inv.Args[1:]
	if len(args) > 0 && args[0] == "--version" || len(args) > 0 && args[0] == "-V" {
		fmt.Fprintln(inv.Stdout, "GNU ar (ShellSim) 2.40")
		return 0
	}
	if len(args) < 2 {
		usage(inv)
		return 1
	}
	var op byte
	var create, verbose, update bool
	for _, c := range strings.TrimPrefix(args[0], "-") {
		switch c {
		case 's':
			// with another operation, s only asks for an index
			if op == 0 {
				op = 's'
			}
		case 'd', 'p', 'q', 'r', 't', 'x':
			if op != 0 && op != 's' {
				fmt.Fprintln(inv.Stderr, "ar: two different operation options specified")
				return 1
			}
			op = byte(c)
		case 'c':
			create = true
		case 'v':
			verbose = true
		case 'u':
			update = true
		case 'D', 'S':
		case 'U', 'a', 'b', 'i', 'N', 'P', 'T', 'o', 'O', 'f', 'l', 'M', 'm':
			inv.Sys.Partial("ar -" + string(c))
			fmt.Fprintf(inv.Stderr, "ar: option -- '%c' is not supported by ShellSim\n", c)
			return 1
		default:
			fmt.Fprintf(inv.Stderr, "ar: invalid option -- '%c'\n", c)
			usage(inv)
			return 1
		}
	}
	if op == 0 {
		fmt.Fprintln(inv.Stderr, "ar: no operation specified")
		return 1
	}
	if update {
		fmt.Fprintln(inv.Stderr, "ar: `u' modifier ignored since `D' is the default (see `U')")
	}
	name, files := args[1], args[2:]
	raw, err := inv.FS.ReadFile(inv.Abs(name))
	exists := err == nil
	if err != nil && !(errors.Is(err, fs.ErrNotExist) && (op == 'r' || op == 'q')) {
		fmt.Fprintf(inv.Stderr, "ar: %s: %s\n", name, command.Message(err))
		if errors.Is(err, fs.ErrNotExist) {
			return 9
		}
		return 1
	}
	if err := inv.Sys.Charge(int64(len(raw)/byteCost) + 10); err != nil {
		return 1
	}
	var ms []member
	if exists {
		if ms, err = parse(raw); err != nil {
			fmt.Fprintf(inv.Stderr, "ar: %s: %s\n", name, err)
			return 1
		}
	}
	wanted := func(m string) bool {
		if len(files) == 0 {
			return true
		}
		for _, f := range files {
			if path.Base(f) == m {
				return true
			}
		}
		return false
	}
	missing := func(found map[string]bool, msg string) {
		w := inv.Stderr
		if op == 'd' {
			w = inv.Stdout // as GNU ar does
		}
		for _, f := range files {
			if !found[path.Base(f)] {
				fmt.Fprintf(w, msg, f)
			}
		}
	}
	found := map[string]bool{}
	switch op {
	case 't':
		for _, m := range ms {
			if !wanted(m.name) {
				continue
			}
			found[m.name] = true
			if verbose {
				fmt.Fprintf(inv.Stdout, "rw-r--r-- 0/0 %6d Jan  1 00:00 1970 %s\n", len(m.data), m.name)
			} else {
				fmt.Fprintln(inv.Stdout, m.name)
			}
		}
		missing(found, "no entry %s in archive\n")
		return 0
	case 'p':
		for _, m := range ms {
			if !wanted(m.name) {
				continue
			}
			found[m.name] = true
			if verbose {
				fmt.Fprintf(inv.Stdout, "\n<%s>\n\n", m.name)
			}
			if _, err := inv.Stdout.Write(m.data); err != nil {
				return 1
			}
		}
		missing(found, "no entry %s in archive\n")
		return 0
	case 'x':
		for _, m := range ms {
			if !wanted(m.name) {
				continue
			}
			found[m.name] = true
			if verbose {
				fmt.Fprintf(inv.Stdout, "x - %s\n", m.name)
			}
			if err := inv.FS.WriteFile(inv.Abs(m.name), m.data, 0o644); err != nil {
				fmt.Fprintf(inv.Stderr, "ar: %s: %s\n", m.name, command.Message(err))
				return 1
			}
		}
		missing(found, "no entry %s in archive\n")
		return 0
	case 'd':
		kept := ms[:0:0]
		for _, m := range ms {
			if len(files) > 0 && wanted(m.name) && !found[m.name] {
				found[m.name] = true
				if verbose {
					fmt.Fprintf(inv.Stdout, "d - %s\n", m.name)
				}
				continue
			}
			kept = append(kept, m)
		}
		missing(found, "No member named `%s'\n")
		ms = kept
	case 'r', 'q':
		if !exists && !create {
			fmt.Fprintf(inv.Stderr, "ar: creating %s\n", name)
		}
		for _, f := range files {
			data, err := inv.FS.ReadFile(inv.Abs(f))
			if err != nil {
				fmt.Fprintf(inv.Stderr, "ar: %s: %s\n", f, command.Message(err))
				return 1
			}
			if err := inv.Sys.Charge(int64(len(data) / byteCost)); err != nil {
				return 1
			}
			base := path.Base(f)
			replaced := false
			if op == 'r' {
				for i := range ms {
					if ms[i].name == base {
						ms[i].data, replaced = data, true
						break
					}
				}
			}
			if !replaced {
				ms = append(ms, member{base, data})
			}
			if verbose {
				tag := "a"
				if replaced {
					tag = "r"
				}
				fmt.Fprintf(inv.Stdout, "%s - %s\n", tag, f)
			}
		}
	case 's':
	}
	out := format(ms)
	if err := inv.Sys.Charge(int64(len(out) / byteCost)); err != nil {
		return 1
	}
	if err := inv.FS.WriteFile(inv.Abs(name), out, 0o644); err != nil {
		fmt.Fprintf(inv.Stderr, "ar: %s: %s\n", name, command.Message(err))
		return 1
	}
	return 0
}

func usage(inv *command.Invocation) {
	fmt.Fprintln(inv.Stderr, "Usage: ar [-]{dpqrstx}[cvDsSu] archive-file file...")
}
