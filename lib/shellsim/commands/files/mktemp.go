package files

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Mktemp creates a temporary file or directory and prints its name.
//
//	mktemp [-dqu] [-p DIR] [-t] [--suffix=SUFF] [TEMPLATE]
//
// The X's are filled from a hash of the virtual clock, the process id and
// an attempt counter, so a run is reproducible.
func Mktemp(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short: "dqup:t",
		Long: []getopt.Long{
			{"directory", "d"}, {"dry-run", "u"}, {"quiet", "q"}, {"suffix=", "suffix"},
			{"tmpdir", "p"}, {"tmpdir=", "p"},
		},
		Help: true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	var dir, quiet, dry, tflag bool
	tmpdir, hasP, suffix := "", false, ""
	for _, o := range opts {
		switch o.Name {
		case "d":
			dir = true
		case "q":
			quiet = true
		case "u":
			dry = true
		case "p":
			tmpdir, hasP = o.Val, true
		case "t":
			tflag = true
		case "suffix":
			suffix = o.Val
		}
	}
	fail := func(format string, a ...any) int {
		if !quiet {
			errorf(inv, format, a...)
		}
		return 1
	}
	if len(operands) > 1 {
		return fail("too many templates")
	}
	template := "tmp.XXXXXXXXXX"
	useDir := hasP || tflag
	if len(operands) == 1 {
		template = operands[0]
	} else {
		useDir = true
	}
	if useDir {
		if tmpdir == "" {
			if v, ok := inv.Env.Get("TMPDIR"); ok && v != "" {
				tmpdir = v
			} else {
				tmpdir = "/tmp"
			}
		}
		if strings.Contains(template, "/") && len(operands) == 1 {
			return fail("invalid template, %s, contains directory separator", q(template))
		}
		template = strings.TrimSuffix(tmpdir, "/") + "/" + template
	}
	if suffix != "" {
		template += suffix
	}
	end := len(template) - len(suffix)
	start := end
	for start > 0 && template[start-1] == 'X' {
		start--
	}
	if end-start < 3 {
		return fail("too few X's in template %s", q(template))
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	for attempt := 0; attempt < 100; attempt++ {
		h := fnv.New64a()
		fmt.Fprintf(h, "%d/%d/%d/%s", inv.Sys.Now().UnixNano(), inv.Sys.PID(), attempt, template)
		seed := h.Sum64()
		b := []byte(template)
		for i := start; i < end; i++ {
			b[i] = chars[seed%uint64(len(chars))]
			seed /= uint64(len(chars))
			if seed == 0 {
				seed = h.Sum64() ^ uint64(i*7919+attempt)
			}
		}
		name := string(b)
		p := inv.Abs(name)
		if _, err := inv.FS.Lstat(p); err == nil {
			continue
		}
		if !dry {
			var err error
			if dir {
				err = inv.FS.Mkdir(p, 0o700)
			} else {
				var f command.File
				f, err = inv.FS.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
				if err == nil {
					err = f.Close()
				}
			}
			if errors.Is(err, fs.ErrExist) {
				continue
			}
			if err != nil {
				kind := "file"
				if dir {
					kind = "directory"
				}
				return fail("failed to create %s via template %s: %s", kind, q(template), command.Message(err))
			}
		}
		if _, err := fmt.Fprintln(inv.Stdout, name); err != nil {
			return 1
		}
		return 0
	}
	return fail("failed to create file via template %s: File exists", q(template))
}
