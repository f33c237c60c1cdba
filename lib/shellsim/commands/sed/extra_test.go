package sed

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func TestSedFuel(t *testing.T) {
	for _, script := range []string{":a;ba", ":a;s/^/x/;ta", `s/\(a*\)*\1b/x/`} {
		e := commandtest.New(t, Commands(), shStub)
		e.Sys.Fuel = 20000
		_, _, st := e.Run([]string{"sed", script}, strings.Repeat("a", 40)+"\n")
		if st != 1 || e.Sys.Fuel != 0 {
			t.Errorf("%s: status %d fuel %d, want a fuel stop", script, st, e.Sys.Fuel)
		}
	}
}

func TestSedDeterministicFuel(t *testing.T) {
	var used []int64
	for range 2 {
		e := commandtest.New(t, Commands(), shStub)
		e.Run([]string{"sed", "-n", "s/o/0/gp;$="}, "foo\nbar\nboo\n")
		used = append(used, e.Sys.Used)
	}
	if used[0] != used[1] || used[0] < 50 {
		t.Errorf("fuel used %v, want equal and >= 50", used)
	}
}

func TestSedMemoryReleased(t *testing.T) {
	e := commandtest.New(t, Commands(), shStub)
	out, _, st := e.Run([]string{"sed", ":a;N;$!ba;s/\\n/+/g"}, strings.Repeat("line\n", 5000))
	if st != 0 || len(out) != 5*5000 {
		t.Fatalf("status %d, %d bytes", st, len(out))
	}
	if e.Sys.Mem != 0 || e.Sys.MemPeak < 5*5000 {
		t.Errorf("memory now %d peak %d", e.Sys.Mem, e.Sys.MemPeak)
	}
}

func TestSedPartial(t *testing.T) {
	for _, args := range [][]string{{"sed", "--debug", "p"}, {"sed", "--posix", "p"}, {"sed", "L"}} {
		e := commandtest.New(t, Commands(), shStub)
		_, errs, st := e.Run(args, "a\n")
		if st != 1 || len(e.Sys.Partials) != 1 || !strings.Contains(errs, "not supported in shellsim") {
			t.Errorf("%q: status %d stderr %q partials %v", args, st, errs, e.Sys.Partials)
		}
	}
}

func TestSedInPlaceKeepsMode(t *testing.T) {
	e := commandtest.New(t, Commands(), shStub)
	e.WriteFile("run.sh", "echo a\n")
	if err := e.FS.Chmod("/work/run.sh", 0o755); err != nil {
		t.Fatal(err)
	}
	if _, errs, st := e.Run([]string{"sed", "-i", "s/a/b/", "run.sh"}, ""); st != 0 {
		t.Fatalf("status %d: %s", st, errs)
	}
	fi, err := e.FS.Stat("/work/run.sh")
	if err != nil || fi.Mode.Perm() != 0o755 || e.ReadFile("run.sh") != "echo b\n" {
		t.Errorf("mode %v err %v content %q", fi.Mode, err, e.ReadFile("run.sh"))
	}
}

// A stand-in shell for the tests: it reports its command and its input.
var shStub = []command.Entry{
	{Name: "sh", Trust: command.Real, Run: func(inv *command.Invocation) int {
		fmt.Fprintf(inv.Stdout, "<%s>\n", strings.Join(inv.Args[1:], " "))
		return 0
	}},
}

func TestSedExecute(t *testing.T) {
	commandtest.Goldens{Commands: [][]command.Entry{Commands(), shStub}}.Run(t, []commandtest.Golden{
		{Args: []string{"sed", "1e echo hi"}, Stdin: "a\nb\n", Stdout: "<-c echo hi>\na\nb\n"},
		{Args: []string{"sed", "e"}, Stdin: "date\n", Stdout: "<-c date>\n"},
		{Args: []string{"sed", "s/^/run /e"}, Stdin: "x\n", Stdout: "<-c run x>\n"},
	})
}

func TestSedInPlaceSymlinks(t *testing.T) {
	e := commandtest.New(t, Commands(), shStub)
	e.WriteFile("target", "a\n")
	if err := e.FS.Symlink("target", "/work/link"); err != nil {
		t.Fatal(err)
	}
	if _, errs, st := e.Run([]string{"sed", "-i", "s/a/b/", "link"}, ""); st != 0 {
		t.Fatalf("status %d: %s", st, errs)
	}
	li, _ := e.FS.Lstat("/work/link")
	if li.Mode&fs.ModeSymlink != 0 || e.ReadFile("link") != "b\n" || e.ReadFile("target") != "a\n" {
		t.Errorf("-i should replace the link: mode %v link %q target %q", li.Mode, e.ReadFile("link"), e.ReadFile("target"))
	}

	e = commandtest.New(t, Commands(), shStub)
	e.WriteFile("target", "a\n")
	if err := e.FS.Symlink("target", "/work/link"); err != nil {
		t.Fatal(err)
	}
	if _, errs, st := e.Run([]string{"sed", "--follow-symlinks", "-i.bak", "s/a/b/", "link"}, ""); st != 0 {
		t.Fatalf("status %d: %s", st, errs)
	}
	li, _ = e.FS.Lstat("/work/link")
	if li.Mode&fs.ModeSymlink == 0 || e.ReadFile("target") != "b\n" || e.ReadFile("target.bak") != "a\n" {
		t.Errorf("--follow-symlinks: mode %v target %q", li.Mode, e.ReadFile("target"))
	}
}

func TestSedSandbox(t *testing.T) {
	for _, script := range []string{"r x", "w x", "s/a/b/w x", "e ls", "s/a/b/e"} {
		e := commandtest.New(t, Commands(), shStub)
		_, errs, st := e.Run([]string{"sed", "--sandbox", script}, "a\n")
		if st != 1 || !strings.Contains(errs, "e/r/w commands disabled in sandbox mode") {
			t.Errorf("%s: %q %d", script, errs, st)
		}
	}
}
