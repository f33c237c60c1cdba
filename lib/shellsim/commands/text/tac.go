package text

import (
	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
	"github.com/shellbox/shellbox/lib/shellsim/posixre"
)

// tac - concatenate and print files in reverse
//
//	tac [-br] [-s SEP] [FILE]...
//
// Records end with SEP (newline by default); -b puts the separator before
// each record instead, -r reads SEP as a basic regular expression.

var tacSpec = getopt.Spec{
	Short: "brs:",
	Long: []getopt.Long{
		{"before", "b"}, {"regex", "r"}, {"separator=", "s"}, {"help", "help"},
		{"version", "version"},
	},
	GNUOrder: true,
}

// Tac runs tac.
func Tac(inv *command.Invocation) int {
	p := newProc(inv, 1)
	opts, files, ok := p.parse(&tacSpec)
	if !ok {
		return p.status
	}
	sep, before, isRE := "\n", false, false
	for _, o := range opts {
		switch o.Name {
		case "b":
			before = true
		case "r":
			isRE = true
		case "s":
			sep = o.Val
			if sep == "" {
				p.warn("separator cannot be empty")
				return p.exit(1)
			}
		}
	}
	pat := posixre.Literal(sep)
	if isRE {
		var err error
		if pat, err = posixre.Parse(sep, posixre.Options{Unicode: utf8Locale(inv.Env)}); err != nil {
			p.warn("%s", err)
			return p.exit(1)
		}
	}
	re, err := pat.Compile(posixre.Options{Fuel: p.fuel})
	if err != nil {
		p.warn("%s", err)
		return p.exit(1)
	}
	status := 0
	for _, f := range defaultStdin(files) {
		data, err := p.readAll(f)
		if p.stop || err == errStop {
			return p.exit(1)
		}
		if err != nil {
			if err == command.ErrIsDir {
				p.warn("%s: read error: %s", f, command.Message(err))
			} else {
				p.warn("failed to open %s for reading: %s", qfile(f), command.Message(err))
			}
			status = 1
			continue
		}
		if !p.charge(int64(len(data))) {
			return p.exit(1)
		}
		// Split into records, each [start,end) with its separator span.
		type rec struct{ s, e int } // record text including separator
		var recs []rec
		locs := re.FindAllIndex(data, -1)
		if p.regexFailed(re) {
			return p.exit(1)
		}
		start := 0
		for _, l := range locs {
			if l[1] == l[0] {
				continue
			}
			if before {
				if l[0] > start || start == 0 {
					recs = append(recs, rec{start, l[0]})
				}
				start = l[0]
			} else {
				recs = append(recs, rec{start, l[1]})
				start = l[1]
			}
		}
		if start < len(data) {
			recs = append(recs, rec{start, len(data)})
		}
		for i := len(recs) - 1; i >= 0; i-- {
			if recs[i].e > recs[i].s && !p.write(data[recs[i].s:recs[i].e]) {
				return p.exit(1)
			}
		}
	}
	return p.exit(status)
}
