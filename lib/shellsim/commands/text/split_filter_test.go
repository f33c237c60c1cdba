package text

import (
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// A stand-in for sh, registered only in this test binary: "sh -c SCRIPT"
// saves its input as $FILE.f and prints $FILE; a script "exit N" exits N.
func init() {
	command.Register("sh", command.Real, func(inv *command.Invocation) int {
		script := inv.Args[2]
		if n, ok := strings.CutPrefix(script, "exit "); ok {
			st, _ := strconv.Atoi(n)
			return st
		}
		name, _ := inv.Env.Get("FILE")
		data, _ := io.ReadAll(inv.Stdin)
		inv.FS.WriteFile(inv.Abs(name+".f"), data, 0o644)
		io.WriteString(inv.Stdout, name+"\n")
		return 0
	})
}

func TestSplitFilter(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"split", "-l", "2", "--filter=cat > $FILE.f", "-", "F"}, stdin: "1\n2\n3\n4\n5\n",
			out: "Faa\nFab\nFac\n", check: wantFiles(nil, map[string]string{"Faa.f": "1\n2\n", "Fab.f": "3\n4\n", "Fac.f": "5\n"})},
		{args: []string{"split", "-l", "1", "--filter=exit 3"}, stdin: "1\n2\n3\n", status: 3,
			err: "split: with FILE=xaa, exit 3 from command: exit 3\n"},
	})
}
