package text

import (
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

// A stand-in for sh, registered only in this test binary: "sh -c SCRIPT"
// saves its input as $FILE.f and prints $FILE; a script "exit N" exits N.
var shStub = []command.Entry{
	{Name: "sh", Trust: command.Real, Run: func(inv *command.Invocation) int {
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
	}},
}

func TestSplitFilter(t *testing.T) {
	runTable(t, []commandtest.Golden{
		{Args: []string{"split", "-l", "2", "--filter=cat > $FILE.f", "-", "F"}, Stdin: "1\n2\n3\n4\n5\n",
			Stdout: "Faa\nFab\nFac\n", Check: wantFiles(nil, map[string]string{"Faa.f": "1\n2\n", "Fab.f": "3\n4\n", "Fac.f": "5\n"})},
		{Args: []string{"split", "-l", "1", "--filter=exit 3"}, Stdin: "1\n2\n3\n", Status: 3,
			Stderr: "split: with FILE=xaa, exit 3 from command: exit 3\n"},
	})
}
