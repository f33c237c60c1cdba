package text

import (
	"io"
	"os"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// tee - read from standard input and write to standard output and files
//
//	tee [-aip] [FILE]...
//
// Unbuffered: each chunk read is passed on at once. -i (ignore SIGINT) and
// -p (diagnose pipe errors) are accepted; no terminal signals are modeled,
// so they change nothing here.
func init() { command.Register("tee", command.Real, Tee) }

var teeSpec = optSpec{short: "aip", long: []longOpt{
	{"append", noArg, "a"}, {"ignore-interrupts", noArg, "i"}, {"output-error", optArg, "p"},
}}

// Tee runs tee.
func Tee(inv *command.Invocation) int {
	p := newProc(inv, 1)
	opts, files, ok := p.parse(teeSpec)
	if !ok {
		return p.status
	}
	flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	for _, o := range opts {
		if o.key == "a" {
			flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		}
	}
	status := 0
	type out struct {
		name string
		f    command.File
		dead bool
	}
	var outs []out
	for _, name := range files {
		if name == "-" {
			// GNU tee treats "-" as a file name only in POSIX mode; it
			// means stdout otherwise.
			outs = append(outs, out{name: name})
			continue
		}
		f, err := p.FS.OpenFile(p.Abs(name), flag, 0o666)
		if err != nil {
			p.fileErr(name, err)
			status = 1
			continue
		}
		outs = append(outs, out{name: name, f: f})
	}
	defer func() {
		for _, o := range outs {
			if o.f != nil {
				o.f.Close()
			}
		}
	}()
	in := &meter{p, p.Stdin}
	buf := make([]byte, 32*1024)
	stdoutOK := true
	for {
		n, err := in.Read(buf)
		if n > 0 {
			if stdoutOK {
				if _, werr := p.Stdout.Write(buf[:n]); werr != nil {
					// A broken stdout stops tee (the executor delivers
					// SIGPIPE semantics).
					p.stop = true
					return p.exit(1)
				}
			}
			for i := range outs {
				o := &outs[i]
				if o.dead {
					continue
				}
				if o.f == nil {
					if _, werr := p.Stdout.Write(buf[:n]); werr != nil {
						p.stop = true
						return p.exit(1)
					}
					continue
				}
				if _, werr := o.f.Write(buf[:n]); werr != nil {
					p.fileErr(o.name, werr)
					status = 1
					o.dead = true
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			if err == errStop {
				return p.exit(1)
			}
			p.warn("read error: %s", command.Message(err))
			return p.exit(1)
		}
	}
	return p.exit(status)
}
