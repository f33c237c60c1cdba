package system

import (
	"testing"
)

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
