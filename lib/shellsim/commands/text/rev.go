package text

import (
	"io"
	"unicode/utf8"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// rev - reverse lines characterwise
//
//	rev [FILE]...
//
// Characters are UTF-8 code points in a UTF-8 locale and bytes otherwise.

// revSpec has only util-linux's --version and --help, in its table's order.
var revSpec = getopt.Spec{
	Long:     []getopt.Long{{"version", "version"}, {"help", "help"}},
	GNUOrder: true,
}

// Rev runs rev.
func Rev(inv *command.Invocation) int {
	p := newProc(inv, 1)
	_, files, ok := p.parse(&revSpec)
	if !ok {
		return p.status
	}
	utf := utf8Locale(inv.Env)
	status := 0
	for _, f := range defaultStdin(files) {
		r, err := p.open(f)
		if err != nil {
			p.warn("cannot open %s: %s", f, command.Message(err))
			status = 1
			continue
		}
		lr := newLineReader(r, '\n')
		for {
			raw, err := lr.next()
			if len(raw) > 0 {
				line := raw
				nl := line[len(line)-1] == '\n'
				if nl {
					line = line[:len(line)-1]
				}
				out := make([]byte, 0, len(raw))
				if utf && utf8.Valid(line) {
					for i := len(line); i > 0; {
						_, size := utf8.DecodeLastRune(line[:i])
						out = append(out, line[i-size:i]...)
						i -= size
					}
				} else {
					for i := len(line) - 1; i >= 0; i-- {
						out = append(out, line[i])
					}
				}
				if nl {
					out = append(out, '\n')
				}
				if !p.write(out) {
					r.Close()
					return p.exit(1)
				}
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				r.Close()
				if err == errStop {
					return p.exit(1)
				}
				p.fileErr(f, err)
				status = 1
				break
			}
		}
		r.Close()
	}
	return p.exit(status)
}
