package system

import (
	"testing"
)

func TestFreePs(t *testing.T) {
	runTable(t, []tc{
		{name: "free", args: "free", out: "" +
			"               total        used        free      shared  buff/cache   available\n" +
			"Mem:           65536           0       65536           0           0       65536\n" +
			"Swap:              0           0           0\n"},
		{name: "free-h", args: "free -h", out: "" +
			"               total        used        free      shared  buff/cache   available\n" +
			"Mem:            64Mi          0B        64Mi          0B          0B        64Mi\n" +
			"Swap:             0B          0B          0B\n"},
		{name: "ps", args: "ps", out: "  PID TTY          TIME CMD\n    1 ?        00:00:00 bash\n  100 ?        00:00:00 cmd\n"},
		{name: "ps-ef", args: "ps -ef", out: "UID        PID  PPID  C STIME TTY          TIME CMD\n" +
			"root         1     0  0 00:00 ?        00:00:00 bash\n" +
			"root       100     1  0 00:00 ?        00:00:00 cmd\n"},
		{name: "ps-aux", args: "ps aux", out: "USER       PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n" +
			"root         1  0.0  0.0      0     0 ?        S    00:00   0:00 bash\n" +
			"root       100  0.0  0.0      0     0 ?        R    00:00   0:00 cmd\n"},
		{name: "ps-o", args: "ps -e -o pid,ppid,stat,cmd", out: "  PID  PPID STAT CMD\n    1     0 S    bash\n  100     1 R    cmd\n"},
		{name: "ps-o-noheader", args: "ps -o pid= -p 1", out: "    1\n"},
		{name: "ps-bad", args: "ps -o bogus", err: "error: unknown user-defined format specifier \"bogus\"\n", status: 1},
	})
}
