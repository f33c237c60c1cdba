package text

import "fmt"

// usageLines are the first lines of each command's --help, as the real
// tools print them; ShellSim prints only these and a pointer to the
// supported options (each command's doc comment).
var usageLines = map[string]string{
	"cat":    "Usage: cat [OPTION]... [FILE]...",
	"tac":    "Usage: tac [OPTION]... [FILE]...",
	"head":   "Usage: head [OPTION]... [FILE]...",
	"tail":   "Usage: tail [OPTION]... [FILE]...",
	"tee":    "Usage: tee [OPTION]... [FILE]...",
	"seq":    "Usage: seq [OPTION]... LAST\n  or:  seq [OPTION]... FIRST LAST\n  or:  seq [OPTION]... FIRST INCREMENT LAST",
	"wc":     "Usage: wc [OPTION]... [FILE]...\n  or:  wc [OPTION]... --files0-from=F",
	"sort":   "Usage: sort [OPTION]... [FILE]...\n  or:  sort [OPTION]... --files0-from=F",
	"uniq":   "Usage: uniq [OPTION]... [INPUT [OUTPUT]]",
	"cut":    "Usage: cut OPTION... [FILE]...",
	"tr":     "Usage: tr [OPTION]... STRING1 [STRING2]",
	"paste":  "Usage: paste [OPTION]... [FILE]...",
	"join":   "Usage: join [OPTION]... FILE1 FILE2",
	"comm":   "Usage: comm [OPTION]... FILE1 FILE2",
	"nl":     "Usage: nl [OPTION]... [FILE]...",
	"fold":   "Usage: fold [OPTION]... [FILE]...",
	"expand": "Usage: expand [OPTION]... [FILE]...",
	"fmt":    "Usage: fmt [-WIDTH] [OPTION]... [FILE]...",
	"split":  "Usage: split [OPTION]... [FILE [PREFIX]]",
	"yes":    "Usage: yes [STRING]...\n  or:  yes OPTION",
	"rev":    "Usage:\n rev [options] [file ...]",
	"column": "Usage:\n column [options] [<file>...]",
}

// helpOrVersion answers --help or --version and returns exit status 0.
func (p *proc) helpOrVersion(arg string) int {
	utilLinux := p.name == "rev" || p.name == "column"
	if arg == "--version" {
		if utilLinux {
			p.writeString(p.name + " from util-linux 2.38.1\n")
		} else {
			p.writeString(p.name + " (GNU coreutils) 9.1\n")
		}
		return p.exit(0)
	}
	u, ok := usageLines[p.name]
	if !ok {
		u = "Usage: " + p.name + " [OPTION]... [FILE]..."
	}
	p.writeString(fmt.Sprintf("%s\n\n(ShellSim prints only the usage line; the options are GNU's.)\n", u))
	return p.exit(0)
}
