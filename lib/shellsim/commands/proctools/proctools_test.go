package proctools_test

import (
	"context"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/all"
)

func run(t *testing.T, src string) shellsim.Result {
	env := shellsim.NewEnvironment(shellsim.DefaultLimits())
	defer env.Close()
	return env.Run(context.Background(), src, nil)
}

func TestProcessTools(t *testing.T) {
	r := run(t, `sleep 100 & sleep 200 &
pgrep sleep | wc -l
pgrep -f 'sleep 200' >/dev/null && echo found
pgrep -c sleep
pkill -f 'sleep 100'; echo pkill=$?
sleep 0.1
pgrep -c sleep
killall sleep; echo killall=$?
wait
pgrep sleep; echo none=$?
killall nosuch; echo missing=$?`)
	want := "2\nfound\n2\npkill=0\n1\nkillall=0\nnone=1\nmissing=1\n"
	if string(r.Stdout) != want {
		t.Fatalf("stdout %q want %q stderr %q", r.Stdout, want, r.Stderr)
	}
	if !strings.Contains(string(r.Stderr), "nosuch: no process found") {
		t.Errorf("stderr %q", r.Stderr)
	}
}

func TestSmallTools(t *testing.T) {
	r := run(t, `nohup echo hi; arch; logname; getconf PAGESIZE; getconf _NPROCESSORS_ONLN; usleep 1000 && echo slept
flock /tmp/lk -c 'echo locked'; ls /tmp/lk; sync; echo synced
ss | head -1; netstat | head -1; lsof -i; echo lsof=$?
zsh -c 'echo from zsh'; dash -c 'echo from dash'; getconf NOPE; echo st=$?`)
	want := "hi\nx86_64\nroot\n4096\n1\nslept\nlocked\n/tmp/lk\nsynced\nNetid State  Recv-Q Send-Q Local Address:Port Peer Address:Port Process\nActive Internet connections (servers and established)\nlsof=1\nfrom zsh\nfrom dash\nst=1\n"
	if string(r.Stdout) != want {
		t.Fatalf("stdout %q\nwant %q\nstderr %q", r.Stdout, want, r.Stderr)
	}
}

// The expected text is GNU coreutils 9.1's for the same commands.
func TestNiceGroups(t *testing.T) {
	r := run(t, `nice; nice -n 5 echo a; nice -5 echo b; nice --adjustment=3 echo c; nice -n x echo; echo st=$?
groups; groups root; groups zz; echo st=$?`)
	want := "0\na\nb\nc\nst=125\nroot\nroot : root\nst=1\n"
	if string(r.Stdout) != want {
		t.Fatalf("stdout %q\nwant %q\nstderr %q", r.Stdout, want, r.Stderr)
	}
	if string(r.Stderr) != "nice: invalid adjustment 'x'\ngroups: 'zz': no such user\n" {
		t.Fatalf("stderr %q", r.Stderr)
	}
}
