package files

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Truncate shrinks or extends files to a size.
//
//	truncate [-co] -s [+-<>/%]SIZE[KMG..] FILE...
//	truncate [-c] -r RFILE FILE...
func Truncate(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short:   "cos:r:",
		Long:    []getopt.Long{{"io-blocks", "o"}, {"no-create", "c"}, {"reference=", "r"}, {"size=", "s"}},
		Partial: map[string]bool{"o": true},
		Help:    true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	noCreate := false
	sizeArg, ref := "", ""
	for _, o := range opts {
		switch o.Name {
		case "c":
			noCreate = true
		case "s":
			sizeArg = o.Val
		case "r":
			ref = o.Val
		}
	}
	if sizeArg == "" && ref == "" {
		missing(inv, "you must specify either '--size' or '--reference'")
		return 1
	}
	if len(operands) == 0 {
		missing(inv, "missing file operand")
		return 1
	}
	op := byte(0)
	var size int64
	if sizeArg != "" {
		s := sizeArg
		if strings.IndexByte("+-<>/%", s[0]) >= 0 {
			op, s = s[0], s[1:]
		}
		n, err := parseSize(s)
		if err != nil {
			errorf(inv, "Invalid number: %s", q(sizeArg))
			return 1
		}
		size = n
		if (op == '/' || op == '%') && n == 0 {
			errorf(inv, "division by zero")
			return 1
		}
	}
	if ref != "" {
		fi, err := inv.FS.Stat(inv.Abs(ref))
		if err != nil {
			errorf(inv, "cannot stat %s: %s", q(ref), command.Message(err))
			return 1
		}
		if sizeArg == "" {
			size = fi.Size
		} else if op == '+' || op == '-' {
			size = fi.Size + map[byte]int64{'+': 1, '-': -1}[op]*size
			op = 0
		}
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	status := 0
	for _, name := range operands {
		p := inv.Abs(name)
		fi, err := inv.FS.Stat(p)
		if errors.Is(err, fs.ErrNotExist) && noCreate {
			continue
		}
		cur := int64(0)
		if err == nil {
			cur = fi.Size
		}
		n := size
		switch op {
		case '+':
			n = cur + size
		case '-':
			n = cur - size
		case '<':
			n = min(cur, size)
		case '>':
			n = max(cur, size)
		case '/':
			n = cur / size * size
		case '%':
			n = (cur + size - 1) / size * size
		}
		if n < 0 {
			n = 0
		}
		if n > cur {
			if err := inv.Sys.Charge(n - cur); err != nil {
				return 1
			}
		}
		f, err := inv.FS.OpenFile(p, os.O_WRONLY|os.O_CREATE, 0o666&^umask)
		if err != nil {
			errorf(inv, "cannot open %s for writing: %s", q(name), command.Message(err))
			status = 1
			continue
		}
		err = f.Truncate(n)
		f.Close()
		if err != nil {
			errorf(inv, "failed to truncate %s at %d bytes: %s", q(name), n, command.Message(err))
			status = 1
		}
	}
	return status
}

// parseSize reads N with an optional K, M, G, T (1024) or KB, MB... (1000)
// suffix, as truncate, head and split do.
func parseSize(s string) (int64, error) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, errors.New("bad size")
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, err
	}
	suf := s[i:]
	mult := int64(1)
	if suf != "" {
		letters := "KMGTPE"
		j := strings.IndexByte(letters, suf[0]&^0x20)
		if suf[0] == 'k' {
			j = 0
		}
		if j < 0 {
			return 0, errors.New("bad suffix")
		}
		basis := int64(1024)
		switch suf[1:] {
		case "", "iB":
		case "B":
			basis = 1000
		default:
			return 0, errors.New("bad suffix")
		}
		for k := 0; k <= j; k++ {
			mult *= basis
		}
	}
	return n * mult, nil
}
