package ar_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/all"
)

// scripts run in ShellSim and, where GNU ar is installed, under bash in a
// temporary directory; the archives are compared through cksum.
var scripts = []struct{ name, src string }{
	{"create-list-print", `printf 'hello\n' > a.txt; printf odd > b.txt; printf 'L\n' > averyveryverylongname_member.txt
ar rv z.a a.txt b.txt averyveryverylongname_member.txt; echo st=$?; cksum z.a
ar t z.a; ar tv z.a; ar pv z.a a.txt; ar p z.a`},
	{"replace-append-delete", `printf 'hello\n' > a.txt; printf odd > b.txt
ar rc x.a a.txt b.txt; printf 'new\n' > a.txt; ar rv x.a a.txt; ar qv x.a a.txt; ar t x.a; cksum x.a
ar dv x.a a.txt nosuch; echo st=$?; ar t x.a; cksum x.a`},
	{"extract", `printf 'one\n' > a.txt; printf 'two\n' > b.txt; ar rc x.a a.txt b.txt; mkdir o; cd o
ar xv ../x.a b.txt; cat b.txt; ls; ar x ../x.a; ls; ar x ../x.a zz; echo st=$?`},
	{"errors", `printf x > notar; ar t notar; echo st=$?; ar t nosuch.a; echo st=$?
ar r new.a nosuchfile; echo st=$?; ls new.a 2>/dev/null; echo none; ar rt new.a; echo st=$?
printf 'a\n' > a.txt; ar ru u.a a.txt; echo st=$?; ar rs s.a a.txt; ar s s.a; echo st=$?; cksum s.a`},
}

func TestArAgainstGNU(t *testing.T) {
	_, hostErr := exec.LookPath("ar")
	for _, s := range scripts {
		t.Run(s.name, func(t *testing.T) {
			env := shellsim.NewEnvironment(shellsim.DefaultLimits())
			defer env.Close()
			r := env.Run(context.Background(), "mkdir -p /tmp/w && cd /tmp/w\n"+s.src, nil)
			if r.Outcome.StopReason != nil {
				t.Fatalf("stopped: %s", *r.Outcome.StopReason)
			}
			if !strings.Contains(string(r.Stdout), "st=") && !strings.Contains(string(r.Stdout), " - ") {
				t.Fatalf("no ar output: stdout %q stderr %q", r.Stdout, r.Stderr)
			}
			if hostErr != nil {
				t.Logf("GNU ar not installed (%v): checked ShellSim's run only", hostErr)
				return
			}
			var stdout, stderr bytes.Buffer
			cmd := exec.Command("bash", "-c", s.src)
			cmd.Dir = t.TempDir()
			cmd.Env = append(os.Environ(), "LC_ALL=C")
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			_ = cmd.Run()
			if string(r.Stdout) != stdout.String() || string(r.Stderr) != stderr.String() || r.Outcome.ExitStatus != cmd.ProcessState.ExitCode() {
				t.Errorf("ShellSim stdout %q\nGNU      stdout %q\nShellSim stderr %q\nGNU      stderr %q\nstatus %d vs %d",
					r.Stdout, stdout.String(), r.Stderr, stderr.String(), r.Outcome.ExitStatus, cmd.ProcessState.ExitCode())
			}
		})
	}
}

// A hostile archive (truncated, lying sizes, bad long-name offsets) is
// refused with a message, never a crash.
func TestArHostileArchive(t *testing.T) {
	env := shellsim.NewEnvironment(shellsim.DefaultLimits())
	defer env.Close()
	r := env.Run(context.Background(), `cd /tmp
printf '!<arch>\na.txt/          0           0     0     644     999999999 `+"`"+`\nxx' > big.a; ar t big.a; echo st=$?
printf '!<arch>\n/99             0           0     0     644     2         `+"`"+`\nxx' > off.a; ar t off.a; echo st=$?
printf '!<arch>\nshort' > short.a; ar x short.a; echo st=$?`, nil)
	if string(r.Stdout) != "st=1\nst=1\nst=1\n" || strings.Count(string(r.Stderr), "file format not recognized") != 3 {
		t.Fatalf("stdout %q stderr %q", r.Stdout, r.Stderr)
	}
}
