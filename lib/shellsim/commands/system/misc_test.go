package system

import (
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func init() {
	command.Register("test-sleep", command.Real, func(inv *command.Invocation) int {
		d, _ := time.ParseDuration(inv.Args[1])
		if inv.Sys.Sleep(d) != nil {
			return 1
		}
		return 0
	})
}

func TestSleep(t *testing.T) {
	clock := func(want time.Duration) func(*testing.T, *commandtest.Env) {
		return func(t *testing.T, e *commandtest.Env) {
			if e.Sys.Clock != want {
				t.Errorf("clock %v, want %v", e.Sys.Clock, want)
			}
		}
	}
	runTable(t, []tc{
		{name: "seconds", args: "sleep 2", check: clock(2 * time.Second)},
		{name: "fraction", args: "sleep 0.25", check: clock(250 * time.Millisecond)},
		{name: "suffixes", args: "sleep 1m 1h 1d 1s", check: clock(24*time.Hour + time.Hour + time.Minute + time.Second)},
		{name: "missing", args: "sleep", err: "sleep: missing operand\nTry 'sleep --help' for more information.\n", status: 1},
		{name: "option", args: "sleep -1", err: "sleep: invalid option -- '1'\nTry 'sleep --help' for more information.\n", status: 1},
		{name: "invalid", args: "sleep x", err: "sleep: invalid time interval 'x'\nTry 'sleep --help' for more information.\n", status: 1, check: clock(0)},
	})
}

func TestTimeout(t *testing.T) {
	runTable(t, []tc{
		{name: "finishes", args: "timeout 5 test-sleep 1s", check: func(t *testing.T, e *commandtest.Env) {
			if e.Sys.Clock != time.Second {
				t.Errorf("clock %v", e.Sys.Clock)
			}
		}},
		{name: "expires", args: "timeout 1 test-sleep 10s", status: 124},
		{name: "preserve", args: "timeout --preserve-status -s KILL 1 test-sleep 10s", status: 137},
		{name: "status", args: "timeout 1 false", status: 1},
		{name: "kill", args: "timeout -s KILL 1 test-sleep 10s", status: 137},
		{name: "not-found", args: "timeout 1 nosuch", err: "nosuch: command not found\n", status: 127},
		{name: "usage", args: "timeout", err: "Try 'timeout --help' for more information.\n", status: 125},
		{name: "bad-interval", args: "timeout x true", err: "timeout: invalid time interval 'x'\nTry 'timeout --help' for more information.\n", status: 125},
		{name: "bad-signal", args: "timeout -s FOO 1 true", err: "timeout: 'FOO': invalid signal\nTry 'timeout --help' for more information.\n", status: 125},
	})
}

func TestEnv(t *testing.T) {
	env := map[string]string{"A": "1", "B": "2"}
	runTable(t, []tc{
		{name: "print", args: "env", env: env, out: "A=1\nB=2\n"},
		{name: "ignore", args: "env -i X=y", env: env, out: "X=y\n"},
		{name: "unset", args: "env -u A C=3", env: env, out: "B=2\nC=3\n"},
		{name: "empty-name", args: "env -i =x", out: "=x\n"},
		{name: "dash", args: "env - Z=1", env: env, out: "Z=1\n"},
		{name: "run", args: "env -i FOO=bar printenv FOO", env: env, out: "bar\n"},
		{name: "run-not-found", args: "env nosuch", env: env, err: "nosuch: command not found\n", status: 127},
		{name: "unset-missing-arg", args: "env -u", err: "env: option requires an argument -- 'u'\nTry 'env --help' for more information.\n", status: 125},
		{name: "printenv", args: "printenv B A", env: env, out: "2\n1\n"},
		{name: "printenv-missing", args: "printenv NOPE", env: env, status: 1},
		{name: "printenv-all", args: "printenv", env: env, out: "A=1\nB=2\n"},
	})
}

func TestIdentity(t *testing.T) {
	runTable(t, []tc{
		{name: "uname", args: "uname", out: "Linux\n"},
		{name: "uname-a", args: "uname -a", out: "Linux sandbox 6.1.0 #1 SMP PREEMPT_DYNAMIC x86_64 GNU/Linux\n"},
		{name: "uname-srm", args: "uname -srm", out: "Linux 6.1.0 x86_64\n"},
		{name: "uname-o", args: "uname -o", out: "GNU/Linux\n"},
		{name: "uname-bad", args: "uname -x", err: "uname: invalid option -- 'x'\nTry 'uname --help' for more information.\n", status: 1},
		{name: "hostname", args: "hostname", out: "sandbox\n"},
		{name: "hostname-set", args: "hostname other", err: "hostname: you must be root to change the host name\n", status: 1},
		{name: "id", args: "id", out: "uid=0(root) gid=0(root) groups=0(root)\n"},
		{name: "id-un", args: "id -un", out: "root\n"},
		{name: "id-g", args: "id -g", out: "0\n"},
		{name: "id-user", args: "id -u user", out: "1000\n"},
		{name: "id-both", args: "id -u -g", err: "id: cannot print \"only\" of more than one choice\n", status: 1},
		{name: "id-nosuch", args: "id nosuchuser", err: "id: 'nosuchuser': no such user\n", status: 1},
		{name: "whoami", args: "whoami", out: "root\n"},
		{name: "whoami-extra", args: "whoami x", err: "whoami: extra operand 'x'\nTry 'whoami --help' for more information.\n", status: 1},
		{name: "nproc", args: "nproc", out: "1\n"},
		{name: "true", args: "true --help"},
		{name: "false", args: "false", status: 1},
	})
}

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

func TestUnsupported(t *testing.T) {
	for _, n := range []string{"python3", "git", "sudo", "vim"} {
		e := commandtest.New(t)
		out, errs, st := e.Run([]string{n, "--version"}, "")
		if out != "" || errs != n+": command not available in ShellSim\n" || st != 127 {
			t.Errorf("%s: %q %q %d", n, out, errs, st)
		}
		if strings.Join(e.Sys.Unsupporteds, ",") != n {
			t.Errorf("%s: recorded %q", n, e.Sys.Unsupporteds)
		}
	}
}
