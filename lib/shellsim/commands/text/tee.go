package text

import (
	"fmt"
	"io"
	"os"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// tee - read from standard input and write to standard output and files
//
//	tee [-aip] [FILE]...
//
// Unbuffered: each chunk read is passed on at once. A failed write to
// standard output (a closed pipe) ends tee, unless -p or --output-error
// says to go on writing the files. -i (ignore SIGINT) is accepted; no
// terminal signals are modeled. As in coreutils 9, "-" is a file name.

var teeSpec = getopt.Spec{
	Short: "aip",
	Long: []getopt.Long{
		{"append", "a"}, {"ignore-interrupts", "i"}, {"output-error", "p"}, {"output-error=", "p"},
		{"help", "help"}, {"version", "version"},
	},
	GNUOrder: true,
}

// Tee runs tee.
func Tee(inv *command.Invocation) int {
	p := newProc(inv, 1)
	opts, files, ok := p.parse(&teeSpec)
	if !ok {
		return p.status
	}
	flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	outputError := "" // "": die like SIGPIPE; else GNU's --output-error MODE
	for _, o := range opts {
		switch o.Name {
		case "a":
			flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		case "p":
			outputError = "warn-nopipe"
			if o.HasVal {
				switch o.Val {
				case "warn", "warn-nopipe", "exit", "exit-nopipe":
					outputError = o.Val
				default:
					p.warn("invalid argument %s for %s", quote(o.Val), quote("--output-error"))
					p.errLines("Valid arguments are:\n  - \uE000warn\uE001\n  - \uE000warn-nopipe\uE001\n  - \uE000exit\uE001\n  - \uE000exit-nopipe\uE001\n")
					return p.usageErr("")
				}
			}
		}
	}
	status := 0
	type out struct {
		name string
		f    command.File
		dead bool
	}
	stdoutOK := true
	var outs []out
	for _, name := range files {
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
	for {
		n, err := in.Read(buf)
		if n > 0 {
			if stdoutOK {
				if _, werr := p.Stdout.Write(buf[:n]); werr != nil {
					// Standard output is taken to be a pipe whose reader
					// left.
					switch outputError {
					case "":
						p.stop = true // SIGPIPE; the executor sets the status
						return p.exit(1)
					case "warn", "exit":
						fmt.Fprintf(p.Stderr, "%s: 'standard output': %s\n", p.name, pipeMsg(werr))
						status = 1
						if outputError == "exit" {
							return p.exit(1)
						}
					}
					stdoutOK = false
				}
			}
			for i := range outs {
				o := &outs[i]
				if o.dead {
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

// pipeMsg is the strerror text for a failed write to standard output.
func pipeMsg(err error) string {
	if m := command.Message(err); m != "" && m != err.Error() {
		return m
	}
	return "Broken pipe"
}
